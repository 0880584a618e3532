import type { IncomingMessage, ServerResponse } from "node:http";

/*
 * The headers every page answer carries, whether Express rendered it or the page cache sent it from
 * node:http (server/page-cache.ts): one list, so the two roads cannot drift.
 */

export const STRICT_TRANSPORT_SECURITY = "max-age=31536000; includeSubDomains";

const FIXED_PAGE_HEADERS: [string, string][] = [
  ["X-Content-Type-Options", "nosniff"],
  ["Referrer-Policy", "strict-origin-when-cross-origin"],
  ["X-Frame-Options", "DENY"],
  ["Cross-Origin-Opener-Policy", "same-origin"],
  ["Permissions-Policy", "camera=(), microphone=(), geolocation=(), payment=()"],
];

/** The page CSP, allowing inline scripts by `scriptSources` ('nonce-…' for a rendering, 'sha256-…' for a stored page). */
export function contentSecurityPolicy(scriptSources: string[]): string {
  return [
    "default-src 'self'",
    `script-src 'self' ${scriptSources.join(" ")}`.trimEnd(),
    "style-src 'self' 'unsafe-inline'",
    // The store's own pictures only: a page never loads from a third party (ADR 044).
    "img-src 'self' data:",
    "font-src 'self'",
    "connect-src 'self'",
    "object-src 'none'",
    "base-uri 'self'",
    // Checkout forms end in a redirect to the payment provider's page.
    "form-action 'self' https:",
    "frame-ancestors 'none'",
  ].join("; ");
}

/** Sets the fixed page headers, and HSTS on a request that came over https. */
export function setPageSecurityHeaders(res: ServerResponse, secure: boolean) {
  for (const [name, value] of FIXED_PAGE_HEADERS) res.setHeader(name, value);
  if (secure) res.setHeader("Strict-Transport-Security", STRICT_TRANSPORT_SECURITY);
}

/** Whether the visitor reached us over https: the socket itself, or the one proxy hop we trust (as Express's req.secure). */
export function cameOverHttps(req: IncomingMessage, trustProxy: boolean): boolean {
  if ((req.socket as { encrypted?: boolean }).encrypted) return true;
  if (!trustProxy) return false;
  const forwarded = req.headers["x-forwarded-proto"];
  const first = (Array.isArray(forwarded) ? forwarded[0] : forwarded)?.split(",")[0]?.trim();
  return first === "https";
}
