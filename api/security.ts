import type { IncomingHttpHeaders } from "node:http";

const SAFE_METHODS = new Set(["GET", "HEAD", "OPTIONS"]);

/**
 * The cross-site check for cookie-authenticated page posts. Browsers send Sec-Fetch-Site
 * (modern) or Origin (older); a request with neither comes from a non-browser client,
 * which carries no victim's cookies, so it passes (SameSite cookies cover the rest).
 */
export function originAllowed(
  method: string,
  headers: IncomingHttpHeaders,
  publicUrl: string,
  requestOrigin: string,
): boolean {
  if (SAFE_METHODS.has(method.toUpperCase())) return true;
  const site = headers["sec-fetch-site"];
  if (typeof site === "string" && site !== "same-origin" && site !== "none") return false;
  const origin = headers.origin;
  if (!origin || origin === "null") return origin !== "null";
  return origin === new URL(publicUrl).origin || origin === requestOrigin;
}
