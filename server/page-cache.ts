import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { CompressedVariants, type Compressor, preferredCoding, variantHeaders } from "../api/compressed-variants";
import { privatePageRequest } from "./private-pages";
import { contentSecurityPolicy } from "./security-headers";

/*
 * A one-second cache of whole pages for visitors who carry no cookie: first visits, crawlers and
 * traffic spikes from a shared link all ask for the same few public pages, and rendering React for
 * each of them is the most expensive thing the process does. A page is kept only when nothing in it
 * can be personal: the request had no cookie and no authorization, the answer is a 200 HTML page
 * that sets no cookie and does not call itself private or no-store.
 *
 * A hit is the cheapest answer the store gives, so it is served from node:http before Express runs
 * (server.ts): its body is compressed once per encoding a visitor asks for, on the first such request, and
 * kept with the page (ADR 058); a visitor who holds these bytes gets a 304 by their ETag. Its CSP allows the
 * page's own inline scripts by their sha256 hashes instead of a per-answer nonce, which would need
 * the body rewritten, and so compressed again, for every visitor. Only scripts that carried the
 * rendering's nonce are hashed: markup a visitor managed to inject never had it, so it stays blocked.
 */

type RenderPage = (request: Request, req: ExpressRequest, res: ExpressResponse) => Promise<Response>;

export type CachedPage = {
  expiresAt: number;
  status: number;
  headers: [string, string][];
  csp: string;
  body: CompressedVariants;
};

export type AnonymousPageCacheOptions = {
  ttlMs: number;
  /** Distinct URLs kept at once; query strings are free-form, so the map must stay bounded. */
  maxEntries: number;
  render: RenderPage;
  now?: () => number;
  /** How a stored page is compressed; the tests count the calls. */
  compress?: Compressor;
};

/** What the visitor's request must be for a shared page to answer it. */
function cacheableRequest(req: IncomingMessage): boolean {
  const accept = req.headers.accept;
  return (
    req.method === "GET" &&
    // No cookie, no authorization, not the back office nor an order looked up by its id.
    !privatePageRequest(req) &&
    // Single-fetch data requests of client navigations go through the ordinary handler.
    !(req.url ?? "").split("?")[0].endsWith(".data") &&
    (accept === undefined || /text\/html|\*\/\*/.test(accept))
  );
}

function cacheableResponse(response: Response): boolean {
  const cacheControl = response.headers.get("cache-control") ?? "";
  return (
    response.status === 200 &&
    (response.headers.get("content-type") ?? "").startsWith("text/html") &&
    !response.headers.has("set-cookie") &&
    !/private|no-store/i.test(cacheControl)
  );
}

/** Lite mode (Save-Data) pages carry no script: they are kept apart from the others. */
function keyOf(req: IncomingMessage): string {
  const saveData = req.headers["save-data"];
  return `${typeof saveData === "string" && /^\s*on\s*$/i.test(saveData) ? "lite " : ""}${req.url ?? ""}`;
}

/** The inline scripts that carry `nonce`, as CSP hash sources, and the body without the (now spent) nonce. */
export function hashInlineScripts(html: string, nonce: string): { sources: string[]; html: string } {
  const sources = new Set<string>();
  for (const match of html.matchAll(/<script\b([^>]*)>([\s\S]*?)<\/script>/g)) {
    const [, attributes, code] = match;
    if (!attributes.includes(`nonce="${nonce}"`) || /\bsrc=/.test(attributes) || code === "") continue;
    sources.add(`'sha256-${createHash("sha256").update(code).digest("base64")}'`);
  }
  return { sources: [...sources], html: html.replaceAll(` nonce="${nonce}"`, "") };
}

export function anonymousPageCache(options: AnonymousPageCacheOptions) {
  const pages = new Map<string, CachedPage>();
  const now = options.now ?? (() => performance.now());

  function store(key: string, response: Response, body: Buffer, nonce: string) {
    const { sources, html } = hashInlineScripts(body.toString("utf8"), nonce);
    const identity = Buffer.from(html, "utf8");
    if (pages.size >= options.maxEntries) pages.delete(pages.keys().next().value!);
    pages.set(key, {
      expiresAt: now() + options.ttlMs,
      status: response.status,
      headers: [...response.headers].filter(([name]) => !/^(content-length|content-security-policy)$/i.test(name)),
      csp: contentSecurityPolicy(sources),
      body: new CompressedVariants(identity, options.compress),
    });
  }

  return {
    /** The stored page that answers this request, while it is fresh. */
    lookup(req: IncomingMessage): CachedPage | undefined {
      if (!cacheableRequest(req)) return undefined;
      const page = pages.get(keyOf(req));
      return page && page.expiresAt > now() ? page : undefined;
    },

    /** Sends a stored page in the encoding the visitor takes; the caller has set the common headers. */
    send(req: IncomingMessage, res: ServerResponse, page: CachedPage) {
      const coding = preferredCoding(req.headers["accept-encoding"]);
      res.statusCode = page.status;
      for (const [name, value] of page.headers) res.setHeader(name, value);
      res.setHeader("Content-Security-Policy", page.csp);
      for (const [name, value] of Object.entries(variantHeaders(page.body, coding))) res.setHeader(name, value);
      res.setHeader("X-Page-Cache", "HIT");
      if (page.body.matches(req.headers["if-none-match"], coding)) {
        res.statusCode = 304;
        res.removeHeader("Content-Encoding");
        res.end();
        return;
      }
      const body = page.body.bytes(coding);
      res.setHeader("Content-Length", body.length);
      res.end(body);
    },

    /** Express middleware for the misses: renders, answers, and keeps the page when it may be shared. */
    async renderAndKeep(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
      if (!cacheableRequest(req)) return next();
      try {
        const response = await options.render(toFetchRequest(req, res), req, res);
        const body = Buffer.from(await response.arrayBuffer());
        if (cacheableResponse(response)) store(keyOf(req), response, body, res.locals.cspNonce as string);
        res.status(response.status);
        for (const [name, value] of response.headers) if (name !== "content-length") res.setHeader(name, value);
        res.setHeader("X-Page-Cache", "MISS");
        res.send(body);
      } catch (error) {
        next(error);
      }
    },
  };
}

function toFetchRequest(req: ExpressRequest, res: ExpressResponse): Request {
  const headers = new Headers();
  for (const [name, value] of Object.entries(req.headers)) {
    if (value === undefined) continue;
    headers.set(name, Array.isArray(value) ? value.join(", ") : value);
  }
  const controller = new AbortController();
  res.on("close", () => controller.abort());
  return new Request(`${req.protocol}://${req.get("host")}${req.originalUrl}`, {
    method: "GET",
    headers,
    signal: controller.signal,
  });
}
