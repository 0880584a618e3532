import { createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { anonymousPageCache } from "../../server/page-cache";
import { privatePages } from "../../server/private-pages";

/*
 * Issue 25 item 8: pages that depend on a session or show personal data answer Cache-Control: private,
 * no-store, whatever the route said, and the anonymous page cache never keeps them. Here with server.ts's
 * own middleware in front of a stand-in for the pages that would happily be cached; the built pages are
 * checked over HTTP in tests/e2e/page-cache.spec.ts.
 */

let base: string;
let close: () => void;
let renders = 0;

beforeAll(async () => {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = "nonce";
    next();
  });
  app.use(privatePages());
  const pageCache = anonymousPageCache({
    ttlMs: 60_000,
    maxEntries: 50,
    render: async () => {
      renders++;
      return new Response(`<p>rendering ${renders}</p>`, {
        headers: { "content-type": "text/html; charset=utf-8", "cache-control": "public, max-age=600" },
      });
    },
  });
  app.get("*", pageCache.renderAndKeep);
  // As server.ts: a stored page is sent before Express runs.
  const server = createServer((req, res) => {
    const stored = pageCache.lookup(req);
    if (stored) return pageCache.send(req, res, stored);
    app(req, res);
  }).listen(0);
  await new Promise((resolve) => server.once("listening", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  close = () => server.close();
});
afterAll(() => close());

async function twice(path: string, headers: Record<string, string> = {}) {
  const first = await fetch(base + path, { headers: { accept: "text/html", ...headers } });
  const second = await fetch(base + path, { headers: { accept: "text/html", ...headers } });
  return [first, second].map((response) => ({
    cacheControl: response.headers.get("cache-control"),
    pageCache: response.headers.get("x-page-cache"),
  }));
}

describe("pages that depend on who asks (issue 25 item 8)", () => {
  it.each([
    ["/dashboard", { cookie: "token=abc" }],
    ["/balance", { cookie: "token=abc; footprint=1" }],
    ["/settings", { cookie: "token=abc" }],
    ["/tickets", { cookie: "token=abc" }],
    ["/shop", { cookie: "cart=signed-lines" }],
    ["/dashboard.data", { cookie: "token=abc" }],
    ["/admin", {}],
    ["/admin/customers", {}],
    ["/admin/orders.data", {}],
    ["/find-order?id=Q2hlY2tvdXQtb3JkZXItMQ", {}],
  ])("%s %j answers private, no-store and is never kept", async (path, headers) => {
    const answers = await twice(path, headers);
    expect(answers.map((answer) => answer.cacheControl)).toEqual(["private, no-store", "private, no-store"]);
    expect(answers.map((answer) => answer.pageCache)).not.toContain("HIT");
  });

  it("leaves a cookie-less visitor's public page to the route and the page cache", async () => {
    for (const path of ["/faqs", "/find-order", "/administrator-guide"]) {
      const answers = await twice(path);
      expect(
        answers.map((answer) => answer.cacheControl),
        path,
      ).toEqual(["public, max-age=600", "public, max-age=600"]);
      expect(
        answers.map((answer) => answer.pageCache),
        path,
      ).toEqual(["MISS", "HIT"]);
    }
  });
});
