import { type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { anonymousPageCache } from "../../server/page-cache";
import { onionLocationForPages, setOnionLocation } from "../../server/onion-location";

/*
 * ONION_URL (issue 29): every HTML page names the same page at the onion origin, on both roads a page takes (a
 * rendering through Express, a stored page sent before it), and nothing else does; without ONION_URL, no header.
 * server.ts wires the same two pieces; tests/e2e/privacy.spec.ts checks the built store over HTTP.
 */

const ONION = `http://${"b7".repeat(28)}.onion`;
const servers: Server[] = [];
afterAll(() => servers.forEach((server) => server.close()));

async function storeWith(onionUrl: string | undefined): Promise<string> {
  const app = express();
  app.use((_req, res, next) => {
    res.locals.cspNonce = "nonce";
    next();
  });
  app.use(onionLocationForPages(onionUrl));
  app.get("/data.json", (_req, res) => res.json({ ok: true }));
  const pageCache = anonymousPageCache({
    ttlMs: 60_000,
    maxEntries: 50,
    render: async () => new Response("<p>page</p>", { headers: { "content-type": "text/html; charset=utf-8" } }),
  });
  app.get("*", pageCache.renderAndKeep);
  const server = createServer((req, res) => {
    const stored = pageCache.lookup(req);
    if (stored) {
      setOnionLocation(res, onionUrl, req.url);
      return pageCache.send(req, res, stored);
    }
    app(req, res);
  });
  servers.push(server);
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  return `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
}

describe("Onion-Location", () => {
  it("names the same path and query at the onion origin, on a rendering and on a stored page", async () => {
    const base = await storeWith(ONION);
    const rendered = await fetch(`${base}/shop?category=music&page=2`);
    expect(rendered.headers.get("x-page-cache")).toBe("MISS");
    expect(rendered.headers.get("onion-location")).toBe(`${ONION}/shop?category=music&page=2`);
    const stored = await fetch(`${base}/shop?category=music&page=2`);
    expect(stored.headers.get("x-page-cache")).toBe("HIT");
    expect(stored.headers.get("onion-location")).toBe(`${ONION}/shop?category=music&page=2`);
    expect((await fetch(`${base}/`)).headers.get("onion-location")).toBe(`${ONION}/`);
    // Not a page: no header.
    expect((await fetch(`${base}/data.json`)).headers.get("onion-location")).toBeNull();
  });

  it("is never sent without ONION_URL", async () => {
    const base = await storeWith(undefined);
    expect((await fetch(`${base}/faqs`)).headers.get("onion-location")).toBeNull();
    const stored = await fetch(`${base}/faqs`);
    expect(stored.headers.get("x-page-cache")).toBe("HIT");
    expect(stored.headers.get("onion-location")).toBeNull();
  });
});
