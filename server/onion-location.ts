import type { ServerResponse } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

/*
 * The store as an onion service beside the clear-web one (issue 29): with ONION_URL set, every HTML page answers an
 * Onion-Location header naming the same page at the onion origin, which Tor Browser offers to open. Both roads a page
 * takes carry it: a rendering through Express (onionLocationForPages) and a stored page sent before Express
 * (setOnionLocation in server.ts).
 */

/** The onion origin plus the request's path and query; `url` is a request target such as `/shop?page=2`. */
export function onionLocationOf(onionUrl: string, url: string | undefined): string {
  const target = url && url.startsWith("/") ? url : "/";
  return `${onionUrl}${target}`;
}

/** Sets the header on a page answer (a stored page is always HTML); without an onion origin, nothing. */
export function setOnionLocation(res: ServerResponse, onionUrl: string | undefined, url: string | undefined) {
  if (onionUrl) res.setHeader("Onion-Location", onionLocationOf(onionUrl, url));
}

/** Express middleware: the header on every HTML answer, decided as the headers go out, when the type is known. */
export function onionLocationForPages(onionUrl: string | undefined) {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (onionUrl) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
        if (/^text\/html\b/i.test(String(this.getHeader("content-type") ?? ""))) {
          setOnionLocation(this, onionUrl, req.originalUrl);
        }
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    next();
  };
}
