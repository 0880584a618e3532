import { createHmac } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { payments } from "../../api/db/schema";
import { SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from "../../api/payments/sandbox";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * PostgreSQL refuses NUL in text, so before the edge check each of these answered 500 (and logged the
 * query's values). Every text input now meets one check first: 400 naming the field.
 */

const NUL = "\u0000";
const LONE_SURROGATE = "\uD800";

let client: ShopTestApi;
let token: string;
let optionId: string;

beforeAll(async () => {
  client = await createShopTestApi();
  ({ token } = await createCustomer(client.db));
  ({ optionId } = await createListing(client.db, { priceCents: 500, stock: 3 }));
  await addToCart(client, token, optionId, 1);
});
afterAll(() => client.close());

function expectRefused(
  answer: { status: number; body: { message: string; errors?: Record<string, string[]> } },
  field: string,
) {
  expect(answer.status, JSON.stringify(answer.body)).toBe(400);
  expect(answer.body.message).toBe(`${field}: Must not contain control characters or invalid Unicode`);
  expect(Object.keys(answer.body.errors ?? {})).toEqual([field]);
}

/** The sandbox signature over any body (the sandbox's key is derived from the session secret). */
function signedSandboxDelivery(body: string) {
  const secret = createHmac("sha256", client.config.sessionSecrets[0]).update("sandbox-webhook").digest("hex");
  const timestamp = Math.floor(Date.now() / 1000);
  const signature = createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex");
  return { "content-type": "application/json", [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}` };
}

describe("control characters in text inputs", () => {
  it("refuses them in every field that answered 500", async () => {
    expectRefused(
      await client.post("/v1/user/login", { username: `jo${NUL}`, password: "secret-password" }),
      "username",
    );
    expectRefused(await client.post("/v1/cart/applyCoupon", { coupon: `SAVE${NUL}` }, { token }), "coupon");
    expectRefused(await client.post("/v1/cart/applyCouponPublic", { cartItems: [], coupon: `SAVE${NUL}` }), "coupon");
    expectRefused(
      await client.post("/v1/order/create", { paymentMethod: "sandbox", coupon: `SAVE${NUL}` }, { token }),
      "coupon",
    );
    expectRefused(
      await client.post("/v1/order/create", { paymentMethod: "sandbox", message: `hello${NUL}` }, { token }),
      "message",
    );
    expectRefused(await client.post("/v1/order/read", { search: `abc${NUL}` }, { token }), "search");
  });

  it("refuses them in a signed webhook before any lookup", async () => {
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token });
    expect(created.status).toBe(201);
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, created.body.payload.orderId));
    const genuine = JSON.parse(
      signSandboxEvent({ paymentId: payment.id, amountCents: 500, currency: "USD", outcome: "paid" }, client.config)
        .body,
    );
    for (const field of ["id", "providerReference"]) {
      const body = JSON.stringify({ ...genuine, [field]: `${genuine[field]}${NUL}` });
      expectRefused(await client.post("/v1/webhooks/sandbox", body, { headers: signedSandboxDelivery(body) }), field);
    }
    // The genuine event still applies: nothing above touched the payment.
    const body = JSON.stringify(genuine);
    const applied = await client.post("/v1/webhooks/sandbox", body, { headers: signedSandboxDelivery(body) });
    expect(applied.body.payload).toEqual({ outcome: "applied" });
  });

  it("refuses other controls, DEL and lone surrogates anywhere: nested fields, keys, queries, path segments", async () => {
    for (const bad of ["\u0001", "\u001b", "\u007f", LONE_SURROGATE, "\uDC00x"]) {
      expectRefused(await client.post("/v1/user/login", { username: `jo${bad}`, password: "p" }), "username");
    }
    expectRefused(
      await client.post("/v1/cart/quote", {
        cartItems: [{ optionId: `${optionId}${NUL}`, duration: 30, quantity: 1 }],
      }),
      "cartItems.0.optionId",
    );
    expectRefused(await client.post("/v1/cart/quote", { cartItems: [], [`x${NUL}`]: 1 }), "x\uFFFD");
    expectRefused(await client.get("/v1/doc/read?name=terms%00"), "name");
    expectRefused(await client.get("/v1/doc/read?name=%7F"), "name");
    expectRefused(await client.delete(`/v1/cart/remove/${optionId}%00`, { token }), "optionId");
    expectRefused(await client.get(`/v1/order/read/${"a".repeat(21)}%00`), "id");
  });

  it("refuses C1 controls and the Unicode line and paragraph separators alike (issue 25 item 9)", async () => {
    for (const bad of ["\u0080", "\u0085", "\u009b", "\u009f", "\u2028", "\u2029"]) {
      expectRefused(await client.post("/v1/user/login", { username: `jo${bad}`, password: "p" }), "username");
      expectRefused(
        await client.post("/v1/order/create", { paymentMethod: "sandbox", message: `hi${bad}there` }, { token }),
        "message",
      );
      expectRefused(await client.post("/v1/cart/quote", { cartItems: [], [`x${bad}`]: 1 }), "x\uFFFD");
      expectRefused(await client.get(`/v1/doc/read?name=${encodeURIComponent(`terms${bad}`)}`), "name");
    }
    // Latin-1 letters and the characters either side of the separators stay welcome.
    const login = await client.post("/v1/user/login", { username: "jöé\u00a0\u2027\u202a", password: "p" });
    expect(login.status).toBe(401);
  });

  it("keeps tabs, newlines and every printable character, emoji included", async () => {
    const buyer = await createCustomer(client.db, { balanceCents: 500 });
    await addToCart(client, buyer.token, optionId, 1);
    const message = "line one\r\n\tline two — ünïcödé 😀";
    const created = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance", message },
      { token: buyer.token },
    );
    expect(created.status, created.body.message).toBe(201);
    const login = await client.post("/v1/user/login", { username: "nobody😀", password: "p" });
    expect(login.status).toBe(401);
  });
});
