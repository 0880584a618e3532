import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { idempotencyKeys, orders, payments } from "../../api/db/schema";
import {
  type Answer,
  IDEMPOTENCY_MESSAGES,
  answerOnce,
  fingerprintOf,
  purgeExpiredIdempotencyKeys,
} from "../../api/services/guards/idempotency";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

const withKey = (token: string, key: string) => ({ token, headers: { "Idempotency-Key": key } });

async function ordersOf(userId: string) {
  return client.db.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId));
}

describe("Idempotency-Key on POST /v1/order/create", () => {
  it("answers a repeat with the first answer and makes one order", async () => {
    const listing = await createListing(client.db, { priceCents: 399 });
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    const first = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, withKey(customer.token, "k-1"));
    // The same body in another key order, with the defaults spelled out, is the same request.
    const repeat = await client.api.request(
      "/v1/order/create",
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          authorization: `Bearer ${customer.token}`,
          "Idempotency-Key": "k-1",
        },
        body: JSON.stringify({ message: "", paymentMethod: "sandbox", coupon: "" }),
      },
      { clientIp: "192.0.2.10" },
    );
    expect(first.status).toBe(201);
    expect(repeat.status).toBe(201);
    expect(repeat.headers.get("Idempotent-Replayed")).toBe("true");
    expect(await repeat.json()).toEqual(first.body);
    expect(await ordersOf(customer.id)).toHaveLength(1);
  });

  it("refuses the same key with another body, and a malformed key", async () => {
    const listing = await createListing(client.db);
    const customer = await createCustomer(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    expect(
      (await client.post("/v1/order/create", { paymentMethod: "sandbox" }, withKey(customer.token, "k-2"))).status,
    ).toBe(201);
    const other = await client.post(
      "/v1/order/create",
      { paymentMethod: "sandbox", message: "another" },
      withKey(customer.token, "k-2"),
    );
    expect(other).toMatchObject({ status: 422, body: { success: false, message: IDEMPOTENCY_MESSAGES.otherBody } });
    const malformed = await client.post(
      "/v1/order/create",
      { paymentMethod: "sandbox" },
      withKey(customer.token, "x".repeat(256)),
    );
    expect(malformed.status).toBe(400);
    expect(malformed.body.errors["Idempotency-Key"]).toBeDefined();
  });

  it("keeps keys apart per customer, and frees a key whose request was refused", async () => {
    const listing = await createListing(client.db);
    const [one, two] = [await createCustomer(client.db), await createCustomer(client.db)];
    const refused = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, withKey(one.token, "same"));
    expect(refused).toMatchObject({ status: 400, body: { message: "Your cart is empty" } });
    await addToCart(client, one.token, listing.optionId, 1);
    await addToCart(client, two.token, listing.optionId, 1);
    const retried = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, withKey(one.token, "same"));
    const otherCustomer = await client.post(
      "/v1/order/create",
      { paymentMethod: "sandbox" },
      withKey(two.token, "same"),
    );
    expect(retried.status).toBe(201);
    expect(otherCustomer.status).toBe(201);
    expect(otherCustomer.body.payload.orderId).not.toBe(retried.body.payload.orderId);
  });

  it("forgets answers after 24 hours", async () => {
    const customer = await createCustomer(client.db);
    const listing = await createListing(client.db);
    await addToCart(client, customer.token, listing.optionId, 1);
    await client.post("/v1/order/create", { paymentMethod: "sandbox" }, withKey(customer.token, "old"));
    const scope = `user:${customer.id}`;
    expect(await client.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope))).toHaveLength(1);
    await purgeExpiredIdempotencyKeys(client.db, new Date(Date.now() + 24 * 60 * 60 * 1000 + 1000));
    expect(await client.db.select().from(idempotencyKeys).where(eq(idempotencyKeys.scope, scope))).toEqual([]);
  });
});

describe("Idempotency-Key on POST /v1/balance/create", () => {
  it("opens one payment for a top-up sent twice with one key", async () => {
    const customer = await createCustomer(client.db);
    const body = { paymentMethod: "sandbox", balance: 12.5 };
    const first = await client.post("/v1/balance/create", body, withKey(customer.token, "top-up-1"));
    const repeat = await client.post("/v1/balance/create", body, withKey(customer.token, "top-up-1"));
    expect(first.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    const opened = await client.db.select().from(payments).where(eq(payments.userId, customer.id));
    expect(opened).toHaveLength(1);
  });
});

describe("answerOnce", () => {
  const request = (key: string) => ({ scope: "user:test", route: "test", key, body: { amount: 1 } });
  const created: Answer = { status: 201, message: "Created", payload: { id: "first" } };

  it("makes a repeat that arrives while the first runs wait for the first answer, without running again", async () => {
    let release = () => {};
    const gate = new Promise<void>((resolve) => (release = resolve));
    let runs = 0;
    const work = async () => {
      runs++;
      await gate;
      return created;
    };
    const first = answerOnce(client.db, request("in-flight"), work);
    await new Promise((resolve) => setTimeout(resolve, 50));
    const repeat = answerOnce(client.db, request("in-flight"), work);
    setTimeout(release, 300);
    expect(await first).toEqual({ ...created, replayed: false });
    expect(await repeat).toEqual({ ...created, replayed: true });
    expect(runs).toBe(1);
  });

  it("takes over a claim left unanswered by a process that died", async () => {
    await client.db.insert(idempotencyKeys).values({
      ...request("abandoned"),
      fingerprint: fingerprintOf({ amount: 1 }),
      createdAt: new Date(Date.now() - 3 * 60_000),
      expiresAt: new Date(Date.now() + 60_000),
    });
    // Only the same request may take the claim over.
    await expect(
      answerOnce(client.db, { ...request("abandoned"), body: { amount: 2 } }, async () => created),
    ).rejects.toMatchObject({ status: 422 });
    expect(await answerOnce(client.db, request("abandoned"), async () => created)).toEqual({
      ...created,
      replayed: false,
    });
  });
});
