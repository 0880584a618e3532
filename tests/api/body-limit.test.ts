import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../api/app";
import { ApiServerProcess, freePort } from "../support/server-process";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

/*
 * No /v1 body may be larger than MAX_BODY_BYTES: a bigger one is refused with 413 while it streams in,
 * instead of being held in memory and parsed. The largest bodies a route takes (a 5 MB stock import, a
 * 2 MB picture in base64) stay under it and meet their own rules.
 */

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

const padded = (bytes: number) => JSON.stringify({ username: "someone", password: "x".repeat(bytes) });

describe("the /v1 body limit", () => {
  it("refuses a body over the limit with 413 and the envelope, announced or streamed", async () => {
    const body = padded(MAX_BODY_BYTES + 1);
    const announced = await client.post("/v1/user/login", body, {
      headers: { "content-length": String(Buffer.byteLength(body)) },
    });
    expect(announced.status).toBe(413);
    expect(announced.body).toEqual({ success: false, message: "The request body is too large" });
    const streamed = await client.post("/v1/user/login", body);
    expect(streamed.status).toBe(413);
  });

  it("lets the largest real bodies through to their own rules", async () => {
    const manager = await createCustomer(client.db, { role: "manager" });
    // A picture over its 2 MB limit, in base64: the route's rule answers, not the body limit.
    const picture = await client.post(
      "/v1/admin/catalogue/products/AAAAAAAAAAAAAAAAAAAAAA/picture",
      { data: Buffer.alloc(2 * 1024 * 1024 + 10).toString("base64") },
      { token: manager.token },
    );
    expect(picture.status).toBe(400);
    const login = await client.post("/v1/user/login", padded(5 * 1024 * 1024));
    expect(login.status).not.toBe(413);
  });
});

describe("the /v1 body limit over HTTP (the Node adapter's requests)", () => {
  let server: ApiServerProcess;
  let dataDir: string;

  beforeAll(async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "store-body-limit-"));
    server = new ApiServerProcess(await freePort(), {
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      SESSION_SECRET: "body-limit-test-secret-that-is-long-enough-0123",
      LOG_LEVEL: "error",
    });
    await server.start(60_000);
  });
  afterAll(async () => {
    await server.kill();
    rmSync(dataDir, { recursive: true, force: true });
  });

  const streamed = (text: string) =>
    new ReadableStream<Uint8Array>({
      start(controller) {
        const bytes = Buffer.from(text);
        // In pieces, as a client that does not announce the length sends it.
        for (let offset = 0; offset < bytes.length; offset += 64 * 1024) {
          controller.enqueue(bytes.subarray(offset, offset + 64 * 1024));
        }
        controller.close();
      },
    });

  it("reads a chunked body (no Content-Length) through to the route's own answer", async () => {
    const response = await fetch(`${server.baseUrl}/v1/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: streamed(JSON.stringify({ username: "nobody-here", password: "a wrong password" })),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(401);
    expect(await response.json()).toMatchObject({ success: false });
  });

  it("answers a DELETE without a body by its rules, not with a 500", async () => {
    const response = await fetch(`${server.baseUrl}/v1/admin/catalogue/categories/AAAAAAAAAAAAAAAAAAAAAA`, {
      method: "DELETE",
    });
    expect(response.status).toBe(401);
  });

  it("refuses a chunked body over the limit with 413", async () => {
    const response = await fetch(`${server.baseUrl}/v1/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: streamed(padded(MAX_BODY_BYTES + 1)),
      duplex: "half",
    } as RequestInit);
    expect(response.status).toBe(413);
    expect(await response.json()).toEqual({ success: false, message: "The request body is too large" });
  });
});
