import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons, orderProducts, orders, stockCredentials, users } from "../../api/db/schema";
import { EMAIL_TAKEN } from "../../api/services/accounts/accounts";
import { HUMAN_CHECK_FAILED, issueChallenge } from "../../api/services/guards/human-check";
import { type FakeGateways, startFakeGateways } from "../support/fake-gateways";
import { type ShopTestApi, createCustomer, createListing, createShopTestApi } from "../support/shop";

/* POST /v1/order/create with isGuest, email and cartItems: the account and the order in one operation. */

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

const freshEmail = () => `guest-${randomBytes(5).toString("hex")}@example.com`;
/** A builtin human-check answer old enough to pass (people take a moment to fill the form). */
const humanAnswer = (api: ShopTestApi) => issueChallenge(api.config, new Date(Date.now() - 5_000)).token!;

function guestOrder(api: ShopTestApi, email: string, cartItems: unknown[], extra: Record<string, unknown> = {}) {
  return {
    isGuest: true,
    email,
    cartItems,
    paymentMethod: "sandbox",
    "g-recaptcha-response": humanAnswer(api),
    ...extra,
  };
}

/** What a refused guest checkout must leave behind: nothing under that email. */
async function leftBehind(api: ShopTestApi, email: string) {
  const accounts = await api.db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`);
  const placed = await api.db.select({ id: orders.id }).from(orders).where(eq(orders.email, email));
  return { accounts: accounts.length, orders: placed.length };
}

describe("guest checkout in one call", () => {
  it("registers the account from the email and creates the order of the cookie cart", async () => {
    const listing = await createListing(client.db, { title: "Music", priceCents: 450, stock: 3 });
    const email = freshEmail();
    const answer = await client.post(
      "/v1/order/create",
      guestOrder(client, email, [{ optionId: listing.optionId, duration: 30, quantity: 2 }], { message: "hi" }),
    );
    expect(answer.status).toBe(201);
    expect(answer.body.payload).toEqual({
      orderId: expect.any(String),
      status: "pending",
      paymentUrl: expect.any(String),
    });

    const [account] = await client.db.select().from(users).where(eq(users.email, email));
    expect(account).toMatchObject({ username: email, autoCreated: true });
    expect(account.passwordHash).toMatch(/^\$argon2id\$/);
    const [order] = await client.db.select().from(orders).where(eq(orders.id, answer.body.payload.orderId));
    expect(order).toMatchObject({ userId: account.id, email, status: "pending", priceCents: 900, message: "hi" });
    const lines = await client.db.select().from(orderProducts).where(eq(orderProducts.orderId, order.id));
    expect(lines).toMatchObject([{ optionId: listing.optionId, quantity: 2, durationDays: 30 }]);
  });

  it("answers a repeat with the same Idempotency-Key with the first order", async () => {
    const listing = await createListing(client.db);
    const body = guestOrder(client, freshEmail(), [{ optionId: listing.optionId, duration: 30, quantity: 1 }]);
    const options = { headers: { "Idempotency-Key": "guest-once" } };
    const first = await client.post("/v1/order/create", body, options);
    const repeat = await client.post("/v1/order/create", body, options);
    expect(first.status).toBe(201);
    expect(repeat.body).toEqual(first.body);
    expect(await leftBehind(client, body.email)).toEqual({ accounts: 1, orders: 1 });
  });

  describe("leaves no account and no order behind when refused", () => {
    it("sold out", async () => {
      const listing = await createListing(client.db, { title: "Rare", optionTitle: "Private", stock: 1 });
      const email = freshEmail();
      const answer = await client.post(
        "/v1/order/create",
        guestOrder(client, email, [{ optionId: listing.optionId, duration: 30, quantity: 2 }]),
      );
      expect(answer).toMatchObject({ status: 409, body: { message: "Sorry, only 1 left of Rare — Private" } });
      expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
      const stock = await client.db
        .select({ status: stockCredentials.status })
        .from(stockCredentials)
        .where(eq(stockCredentials.optionId, listing.optionId));
      expect(stock).toEqual([{ status: "available" }]);
    });

    it("a line the shop no longer sells", async () => {
      const listing = await createListing(client.db);
      const email = freshEmail();
      const answer = await client.post(
        "/v1/order/create",
        guestOrder(client, email, [{ optionId: listing.optionId, duration: 365, quantity: 1 }]),
      );
      expect(answer.status).toBe(409);
      expect(answer.body.message).toMatch(/no longer available/);
      expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
    });

    it("a bad or used-up coupon", async () => {
      const listing = await createListing(client.db);
      await client.db.insert(coupons).values({ code: "GONE", kind: "percent", amount: 10, maxUses: 0 });
      for (const coupon of ["NOSUCH", "GONE"]) {
        const email = freshEmail();
        const answer = await client.post(
          "/v1/order/create",
          guestOrder(client, email, [{ optionId: listing.optionId, duration: 30, quantity: 1 }], { coupon }),
        );
        expect([400, 409]).toContain(answer.status);
        expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
      }
    });

    it("a payment method that is off, or balance", async () => {
      const listing = await createListing(client.db);
      for (const paymentMethod of ["stripe", "balance"]) {
        const email = freshEmail();
        const answer = await client.post(
          "/v1/order/create",
          guestOrder(client, email, [{ optionId: listing.optionId, duration: 30, quantity: 1 }], { paymentMethod }),
        );
        expect(answer).toMatchObject({
          status: 400,
          body: { message: "This payment method is not available. Please choose another one." },
        });
        expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
      }
    });

    it("an email that already has an account (409, the panel then suggests Sign In)", async () => {
      const listing = await createListing(client.db);
      const existing = await createCustomer(client.db);
      const answer = await client.post(
        "/v1/order/create",
        guestOrder(client, existing.email.toUpperCase(), [{ optionId: listing.optionId, duration: 30, quantity: 1 }]),
      );
      expect(answer).toMatchObject({ status: 409, body: { message: EMAIL_TAKEN, errors: { email: [EMAIL_TAKEN] } } });
      expect(await leftBehind(client, existing.email)).toEqual({ accounts: 1, orders: 0 });
    });

    it("a failed human check, checked before anything is written", async () => {
      const listing = await createListing(client.db);
      const email = freshEmail();
      const line = [{ optionId: listing.optionId, duration: 30, quantity: 1 }];
      const tooFast = issueChallenge(client.config).token!;
      for (const answerText of [undefined, "forged", tooFast]) {
        const answer = await client.post(
          "/v1/order/create",
          guestOrder(client, email, line, { "g-recaptcha-response": answerText }),
        );
        expect(answer).toMatchObject({ status: 400, body: { message: HUMAN_CHECK_FAILED, humanCheckRequired: true } });
      }
      expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
    });

    it("an empty cart", async () => {
      const email = freshEmail();
      const answer = await client.post("/v1/order/create", guestOrder(client, email, []));
      expect(answer).toMatchObject({ status: 400, body: { message: "Your cart is empty" } });
      expect(await leftBehind(client, email)).toEqual({ accounts: 0, orders: 0 });
    });
  });

  it("still takes the spec client's variant: isGuest with the fresh account's token and its server cart", async () => {
    const listing = await createListing(client.db);
    const customer = await createCustomer(client.db, { autoCreated: true });
    await client.post("/v1/cart/add", { optionId: listing.optionId, quantity: 1, duration: 30 }, customer);
    const answer = await client.post("/v1/order/create", { paymentMethod: "sandbox", isGuest: true }, customer);
    expect(answer.status).toBe(201);
  });
});

describe("guest checkout when the provider cannot open the checkout", () => {
  let fake: FakeGateways;
  let withCoinbase: ShopTestApi;
  beforeAll(async () => {
    fake = await startFakeGateways();
    withCoinbase = await createShopTestApi({
      COINBASE_API_KEY: fake.credentials.coinbase.apiKey,
      COINBASE_WEBHOOK_SECRET: fake.credentials.coinbase.webhookSecret,
      COINBASE_API_BASE: fake.credentials.coinbase.apiBase,
    });
  });
  afterAll(async () => {
    await withCoinbase.close();
    await fake.close();
  });

  it("answers 503 and removes the account and the order again, releasing the stock", async () => {
    const listing = await createListing(withCoinbase.db, { stock: 1 });
    const email = freshEmail();
    fake.answerNextWith("coinbase", 503, "upstream down");
    const answer = await withCoinbase.post(
      "/v1/order/create",
      guestOrder(withCoinbase, email, [{ optionId: listing.optionId, duration: 30, quantity: 1 }], {
        paymentMethod: "coinbase",
      }),
    );
    expect(answer.status).toBe(503);
    expect(await leftBehind(withCoinbase, email)).toEqual({ accounts: 0, orders: 0 });
    const stock = await withCoinbase.db
      .select({ status: stockCredentials.status, orderProductId: stockCredentials.orderProductId })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, listing.optionId));
    expect(stock).toEqual([{ status: "available", orderProductId: null }]);

    const retry = await withCoinbase.post(
      "/v1/order/create",
      guestOrder(withCoinbase, email, [{ optionId: listing.optionId, duration: 30, quantity: 1 }], {
        paymentMethod: "coinbase",
      }),
    );
    expect(retry.status).toBe(201);
  });
});
