import type { IncomingMessage } from "node:http";
import type { NextFunction, Request as ExpressRequest, Response as ExpressResponse } from "express";

/*
 * Pages that depend on who asks, or show what only its owner may see, are never kept by a browser's or a
 * proxy's cache (ADR 041): any page request that carries a cookie (a session, a cart, an unpaid order: the
 * page is built from them), the back office (/admin and below, customers' emails, messages and balances)
 * and an order looked up by its id (/find-order?id=, whose id is the key to the order and its credentials).
 */

const PRIVATE = "private, no-store";

/**
 * Whether this page request's answer may depend on who asks or show personal data. Takes node's request, as
 * the page cache asks before Express runs (server.ts); the path is read as the pages' router reads it.
 */
export function privatePageRequest(req: IncomingMessage): boolean {
  if (req.headers.cookie || req.headers.authorization) return true;
  const url = new URL(`http://store${req.url ?? "/"}`);
  // Client navigations fetch a page's data from the page's path plus ".data".
  const path = url.pathname.replace(/\.data$/, "");
  if (path === "/admin" || path.startsWith("/admin/")) return true;
  return path === "/find-order" && url.searchParams.has("id");
}

/**
 * Answers `Cache-Control: private, no-store` for such requests, set as the headers go out so that no route
 * (nor a cached rendering) can answer otherwise.
 */
export function privatePages() {
  return (req: ExpressRequest, res: ExpressResponse, next: NextFunction) => {
    if (privatePageRequest(req)) {
      const writeHead = res.writeHead;
      res.writeHead = function (this: ExpressResponse, ...args: Parameters<typeof writeHead>) {
        this.setHeader("Cache-Control", PRIVATE);
        return writeHead.apply(this, args);
      } as typeof writeHead;
    }
    next();
  };
}
