import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { seedDemoData } from "../../api/db/seed";
import { stockCredentials } from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import { SnapshotCache } from "../../api/snapshot-cache";
import { createTestDatabase } from "../support/database";
import type { DatabaseHandle } from "../../api/db/client";
import { eq } from "drizzle-orm";
import { brotliDecompressSync, gunzipSync } from "node:zlib";

describe("SnapshotCache", () => {
  it("loads once per interval and shares a load between concurrent callers", async () => {
    let clock = 0;
    const cache = new SnapshotCache(1000, () => clock);
    let loads = 0;
    const load = async () => ({ loads: ++loads });

    const [first, second] = await Promise.all([cache.get("k", load), cache.get("k", load)]);
    expect(first).toEqual({ loads: 1 });
    expect(second).toBe(first);
    clock = 999;
    expect(await cache.get("k", load)).toEqual({ loads: 1 });
    clock = 1000;
    expect(await cache.get("k", load)).toEqual({ loads: 2 });
  });

  it("does not keep a failed load", async () => {
    const cache = new SnapshotCache(1000, () => 0);
    await expect(cache.get("k", () => Promise.reject(new Error("down")))).rejects.toThrow("down");
    expect(await cache.get("k", async () => "fine")).toBe("fine");
  });

  it("with a zero interval loads every time", async () => {
    const cache = new SnapshotCache(0);
    let loads = 0;
    await cache.get("k", async () => ++loads);
    await cache.get("k", async () => ++loads);
    expect(loads).toBe(2);
  });
});

describe("GET /v1/product/read through the snapshot", () => {
  let database: DatabaseHandle;
  let api: ReturnType<typeof createApi>;

  beforeAll(async () => {
    database = await createTestDatabase();
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: "/tmp/store-test-data",
      SESSION_SECRET: "snapshot-test-secret-".padEnd(48, "x"),
      CATALOGUE_CACHE_MS: "400",
    });
    api = createApi({ db: database.db, config, logger: createLogger("silent") });
    // After createApi, which loads the credentials key the seed seals the demo's stock with (ADR 056).
    await seedDemoData(database.db);
  });
  afterAll(() => database.close());

  const totalStock = async () => {
    const response = await api.request("/v1/product/read");
    expect(response.status).toBe(200);
    const body = (await response.json()) as { success: boolean; payload: { totalStock: number }[] };
    expect(body.success).toBe(true);
    return body.payload.reduce((sum, product) => sum + product.totalStock, 0);
  };

  it("answers the same envelope, and shows a stock change once the interval has passed", async () => {
    const before = await totalStock();
    await database.db.update(stockCredentials).set({ status: "void" }).where(eq(stockCredentials.status, "available"));
    expect(await totalStock()).toBe(before);
    await new Promise((resolve) => setTimeout(resolve, 450));
    expect(await totalStock()).toBeLessThan(before);
  });

  const read = async (headers: Record<string, string>) => {
    const response = await api.request("/v1/product/read", { headers });
    return { response, body: Buffer.from(await response.arrayBuffer()) };
  };

  it("keeps each encoding a client asks for, with Vary and an ETag per encoding, and 304 for bytes held", async () => {
    await new Promise((resolve) => setTimeout(resolve, 450));
    const identity = await read({});
    expect(identity.response.headers.get("content-encoding")).toBeNull();
    expect(identity.response.headers.get("vary")).toBe("Accept-Encoding");
    const json = identity.body.toString("utf8");
    expect(JSON.parse(json)).toMatchObject({ success: true });

    const br = await read({ "accept-encoding": "gzip, deflate, br, zstd" });
    expect(br.response.headers.get("content-encoding")).toBe("br");
    expect(br.response.headers.get("vary")).toBe("Accept-Encoding");
    expect(brotliDecompressSync(br.body).toString("utf8")).toBe(json);
    const gzip = await read({ "accept-encoding": "gzip, deflate" });
    expect(gzip.response.headers.get("content-encoding")).toBe("gzip");
    expect(gunzipSync(gzip.body).toString("utf8")).toBe(json);

    const etags = [identity, br, gzip].map(({ response }) => response.headers.get("etag"));
    expect(new Set(etags).size).toBe(3);
    // Within the snapshot the same bytes answer again (made once: tests/unit/compressed-variants.test.ts counts).
    const again = await read({ "accept-encoding": "br" });
    expect(again.body.equals(br.body)).toBe(true);
    const held = await read({ "accept-encoding": "br", "if-none-match": etags[1]! });
    expect(held.response.status).toBe(304);
    expect(held.body.length).toBe(0);
  });

  it("answers new bytes, under a new ETag, once a new snapshot differs", async () => {
    const before = await read({ "accept-encoding": "br" });
    const etag = before.response.headers.get("etag")!;
    await database.db.update(stockCredentials).set({ status: "available" }).where(eq(stockCredentials.status, "void"));
    await new Promise((resolve) => setTimeout(resolve, 450));
    const after = await read({ "accept-encoding": "br", "if-none-match": etag });
    expect(after.response.status).toBe(200);
    expect(after.response.headers.get("etag")).not.toBe(etag);
    expect(brotliDecompressSync(after.body).equals(brotliDecompressSync(before.body))).toBe(false);
  });
});
