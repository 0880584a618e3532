import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Request as ExpressRequest, Response as ExpressResponse } from "express";
import { describe, expect, it } from "vitest";
import {
  type Compressor,
  CompressedVariants,
  compressStored,
  preferredCoding,
  variantHeaders,
} from "../../api/compressed-variants";
import { anonymousPageCache } from "../../server/page-cache";

/* A cached answer keeps each encoding it is asked for, made once per snapshot (issue 40, ADR 058). */

const CHROMIUM = "gzip, deflate, br, zstd";
const page = `<!DOCTYPE html><html><body>${"<article class=card>A product, its price</article>".repeat(400)}</body></html>`;

/** The stored compressor, counting its calls by encoding. */
function countingCompressor() {
  const calls = { br: 0, gzip: 0 };
  const compress: Compressor = (coding, identity) => {
    calls[coding] += 1;
    return compressStored(coding, identity);
  };
  return { calls, compress };
}

describe("the encoding a request gets", () => {
  it.each([
    [CHROMIUM, "br"],
    ["gzip, deflate, br", "br"],
    ["gzip, deflate", "gzip"],
    ["br;q=0, gzip", "gzip"],
    ["br ; q=0, gzip", "gzip"],
    ["deflate", "identity"],
    [undefined, "identity"],
  ])("Accept-Encoding %s answers %s", (header, coding) => {
    expect(preferredCoding(header)).toBe(coding);
  });
});

describe("CompressedVariants", () => {
  it("decompresses, in each encoding, to the identity bytes, and makes each encoding once", () => {
    const { calls, compress } = countingCompressor();
    const variants = new CompressedVariants(Buffer.from(page), compress);
    for (let round = 0; round < 3; round++) {
      expect(brotliDecompressSync(variants.bytes("br")).toString()).toBe(page);
      expect(gunzipSync(variants.bytes("gzip")).toString()).toBe(page);
      expect(variants.bytes("identity").toString()).toBe(page);
    }
    expect(calls).toEqual({ br: 1, gzip: 1 });
    expect(variants.bytes("br").length).toBeLessThan(page.length / 10);
  });

  it("makes nothing for an encoding nobody asked for", () => {
    const { calls, compress } = countingCompressor();
    new CompressedVariants(Buffer.from(page), compress).bytes("identity");
    expect(calls).toEqual({ br: 0, gzip: 0 });
  });

  it("names each encoding with its own ETag, says it varies by Accept-Encoding, and matches If-None-Match", () => {
    const variants = new CompressedVariants(Buffer.from(page));
    const tags = (["identity", "br", "gzip"] as const).map((coding) => variants.etag(coding));
    expect(new Set(tags).size).toBe(3);
    expect(variantHeaders(variants, "br")).toEqual({
      Vary: "Accept-Encoding",
      ETag: tags[1],
      "Content-Encoding": "br",
    });
    expect(variantHeaders(variants, "identity")).toEqual({ Vary: "Accept-Encoding", ETag: tags[0] });
    expect(variants.matches(`"other", W/${tags[1]}`, "br")).toBe(true);
    expect(variants.matches(tags[1], "gzip")).toBe(false);
    expect(variants.matches(undefined, "br")).toBe(false);
  });

  it("gives other bytes another ETag", () => {
    const before = new CompressedVariants(Buffer.from(page));
    const after = new CompressedVariants(Buffer.from(page.replace("price", "PRICE")));
    expect(after.etag("br")).not.toBe(before.etag("br"));
  });
});

/** Just enough of Express's request and response for the page cache's miss path. */
function expressPair(headers: Record<string, string>) {
  const req = {
    method: "GET",
    url: "/shop",
    originalUrl: "/shop",
    protocol: "http",
    headers: { host: "store.test", accept: "text/html", ...headers },
    get: (name: string) => (name.toLowerCase() === "host" ? "store.test" : undefined),
  } as unknown as ExpressRequest;
  const res = {
    locals: { cspNonce: "n0nce" },
    on: () => res,
    status: () => res,
    setHeader: () => res,
    send: () => res,
  } as unknown as ExpressResponse;
  return { req, res };
}

/** A node:http response that records what the page cache sends. */
function recordedResponse() {
  const sent: { status: number; headers: Map<string, string>; body: Buffer } = {
    status: 0,
    headers: new Map(),
    body: Buffer.alloc(0),
  };
  const res = {
    set statusCode(value: number) {
      sent.status = value;
    },
    get statusCode() {
      return sent.status;
    },
    setHeader: (name: string, value: string | number) => sent.headers.set(name.toLowerCase(), String(value)),
    removeHeader: (name: string) => sent.headers.delete(name.toLowerCase()),
    end: (body?: Buffer) => (sent.body = body ?? Buffer.alloc(0)),
  } as unknown as ServerResponse;
  return { res, sent };
}

describe("the anonymous page cache", () => {
  it("keeps each encoding asked for, made once per stored page, and makes new bytes for a new rendering", async () => {
    let clock = 0;
    let rendering = 0;
    const { calls, compress } = countingCompressor();
    const cache = anonymousPageCache({
      ttlMs: 1_000,
      maxEntries: 10,
      now: () => clock,
      compress,
      render: async () => {
        rendering += 1;
        return new Response(page.replace("<body>", `<body><p>rendering ${rendering}</p>`), {
          headers: { "content-type": "text/html; charset=utf-8" },
        });
      },
    });
    const store = async () => {
      const { req, res } = expressPair({});
      await cache.renderAndKeep(req, res, (error?: unknown) => {
        throw error ?? new Error("the page was not kept");
      });
    };
    const ask = (acceptEncoding?: string, ifNoneMatch?: string) => {
      const req = {
        method: "GET",
        url: "/shop",
        headers: {
          accept: "text/html",
          ...(acceptEncoding ? { "accept-encoding": acceptEncoding } : {}),
          ...(ifNoneMatch ? { "if-none-match": ifNoneMatch } : {}),
        },
      } as unknown as IncomingMessage;
      const stored = cache.lookup(req);
      if (!stored) throw new Error("no stored page");
      const { res, sent } = recordedResponse();
      cache.send(req, res, stored);
      return sent;
    };

    await store();
    const identity = ask();
    expect(identity.headers.get("content-encoding")).toBeUndefined();
    expect(identity.headers.get("vary")).toBe("Accept-Encoding");
    const html = identity.body.toString();
    expect(html).toContain("rendering 1");
    expect(calls).toEqual({ br: 0, gzip: 0 });

    for (let visitor = 0; visitor < 5; visitor++) {
      const br = ask(CHROMIUM);
      expect(br.headers.get("content-encoding")).toBe("br");
      expect(br.headers.get("vary")).toBe("Accept-Encoding");
      expect(br.headers.get("content-length")).toBe(String(br.body.length));
      expect(brotliDecompressSync(br.body).toString()).toBe(html);
      const gzip = ask("gzip");
      expect(gzip.headers.get("content-encoding")).toBe("gzip");
      expect(gunzipSync(gzip.body).toString()).toBe(html);
    }
    expect(calls).toEqual({ br: 1, gzip: 1 });

    const etag = ask(CHROMIUM).headers.get("etag")!;
    const notModified = ask(CHROMIUM, etag);
    expect(notModified.status).toBe(304);
    expect(notModified.body.length).toBe(0);
    expect(ask("gzip", etag).status).toBe(200);

    // The next rendering is a new snapshot: new bytes, a new ETag, compressed again once.
    clock = 1_000;
    await store();
    const next = ask(CHROMIUM);
    expect(brotliDecompressSync(next.body).toString()).toContain("rendering 2");
    expect(next.headers.get("etag")).not.toBe(etag);
    expect(ask(CHROMIUM, etag).status).toBe(200);
    expect(calls).toEqual({ br: 2, gzip: 1 });
  });
});
