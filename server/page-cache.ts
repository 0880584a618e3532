import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";
import { privatePageRequest } from "./private-pages";

/*
 * A one-second cache of whole pages for visitors who carry no cookie: first visits, crawlers and
 * traffic spikes from a shared link all ask for the same few public pages, and rendering React for
 * each of them is the most expensive thing the process does. A page is kept only when nothing in it
 * can be personal: the request had no cookie and no authorization, the answer is a 200 HTML page
 * that sets no cookie and does not call itself private or no-store. The CSP nonce of the rendering
 * is swapped for each response's own, so every answer still carries a fresh nonce.
 */

type RenderPage = (request: Request, req: ExpressRequest, res: ExpressResponse) => Promise<Response>;

type CachedPage = {
  expiresAt: number;
  status: number;
  headers: [string, string][];
  /** The HTML with every occurrence of the rendering's nonce replaced by NONCE_SLOT. */
  body: string;
};

const NONCE_SLOT = "\u0000csp-nonce\u0000";

export type AnonymousPageCacheOptions = {
  ttlMs: number;
  /** Distinct URLs kept at once; query strings are free-form, so the map must stay bounded. */
  maxEntries: number;
  render: RenderPage;
  now?: () => number;
};

export function anonymousPageCache(options: AnonymousPageCacheOptions) {
  const pages = new Map<string, CachedPage>();
  const now = options.now ?? (() => performance.now());

  return async function servePage(req: ExpressRequest, res: ExpressResponse, next: NextFunction) {
    if (!cacheableRequest(req)) return next();
    const nonce = res.locals.cspNonce as string;
    // Lite mode (Save-Data) pages carry no script: they are kept apart from the others.
    const key = `${/^\s*on\s*$/i.test(req.get("save-data") ?? "") ? "lite " : ""}${req.originalUrl}`;
    try {
      const cached = pages.get(key);
      if (cached && cached.expiresAt > now()) {
        send(res, cached.status, cached.headers, cached.body.replaceAll(NONCE_SLOT, nonce), "HIT");
        return;
      }
      const response = await options.render(toFetchRequest(req, res), req, res);
      const body = Buffer.from(await response.arrayBuffer());
      const headers = [...response.headers].filter(([name]) => name !== "content-length");
      if (cacheableResponse(response)) {
        if (pages.size >= options.maxEntries) pages.delete(pages.keys().next().value!);
        pages.set(key, {
          expiresAt: now() + options.ttlMs,
          status: response.status,
          headers,
          body: body.toString("utf8").replaceAll(nonce, NONCE_SLOT),
        });
      }
      send(res, response.status, headers, body, "MISS");
    } catch (error) {
      next(error);
    }
  };
}

function cacheableRequest(req: ExpressRequest): boolean {
  return (
    req.method === "GET" &&
    // No cookie, no authorization, not the back office nor an order looked up by its id.
    !privatePageRequest(req) &&
    // Single-fetch data requests of client navigations go through the ordinary handler.
    !req.path.endsWith(".data") &&
    req.accepts("html") === "html"
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

function send(
  res: ExpressResponse,
  status: number,
  headers: [string, string][],
  body: string | Buffer,
  cache: "HIT" | "MISS",
) {
  res.status(status);
  for (const [name, value] of headers) res.setHeader(name, value);
  res.setHeader("X-Page-Cache", cache);
  res.send(body);
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
