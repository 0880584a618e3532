import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_BODY_BYTES } from "../../api/app";
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
