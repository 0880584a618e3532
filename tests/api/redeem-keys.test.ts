import { randomBytes } from "node:crypto";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDEEM_KEY_INVALID } from "../../contract/redeem-key";
import { mailOutbox, orderProducts, orders, redeemKeys, stockCredentials, users } from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { generateKeys, listKeys, revokeKeys } from "../../api/services/keys/redeem-keys";
import { type ShopTestApi, createCustomer, createListing, createShopTestApi, nextIp } from "../support/shop";

/* POST /v1/order/redeemKey and the back office's key service calls (ADR 021). */

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

const freshEmail = () => `redeemer-${randomBytes(5).toString("hex")}@example.com`;
const humanAnswer = (api: ShopTestApi) => issueChallenge(api.config, new Date(Date.now() - 5_000)).token!;
const redeem = (api: ShopTestApi, email: string, key: string, ip = nextIp()) =>
  api.post("/v1/order/redeemKey", { email, key, "g-recaptcha-response": humanAnswer(api) }, { ip });

async function oneKey(stock = 3, quantity = 1) {
  const listing = await createListing(client.db, { title: `Keyed ${randomBytes(3).toString("hex")}`, stock });
  const { codes } = await generateKeys(client.db, { optionId: listing.optionId, durationDays: 30, quantity, count: 1 });
  return { listing, code: codes[0] };
}

describe("redeem keys", () => {
  it("generates grouped 100-bit codes, stores only their hashes, and lists them by state", async () => {
    const listing = await createListing(client.db, { stock: 1 });
    const { codes, batchId } = await generateKeys(client.db, {
      optionId: listing.optionId,
      durationDays: 30,
      quantity: 1,
      count: 3,
    });
    for (const code of codes) expect(code).toMatch(/^([0-9A-HJKMNP-TV-Z]{5}-){3}[0-9A-HJKMNP-TV-Z]{5}$/);
    expect(new Set(codes).size).toBe(3);
    const stored = JSON.stringify(await client.db.select().from(redeemKeys).where(eq(redeemKeys.batchId, batchId)));
    for (const code of codes) expect(stored).not.toContain(code.replace(/-/g, ""));
    const listed = await listKeys(client.db, { page: 1, batchId });
    expect(listed.records.map((key) => key.state)).toEqual(["unused", "unused", "unused"]);
    expect(listed.records.map((key) => key.hint).sort()).toEqual(codes.map((code) => code.slice(-4)).sort());
  });

  it("makes a completed, delivered, free order for a new account, case- and dash-insensitively, and mails it", async () => {
    const { listing, code } = await oneKey();
    const email = freshEmail();
    const typed = ` ${code.toLowerCase().replace(/-/g, " ")} `;
    const answer = await redeem(client, email, typed);
    expect(answer.status).toBe(201);
    const orderId = answer.body.payload.orderId as string;
    const [order] = await client.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: "completed", priceCents: 0, paymentMethod: "key", source: "redeem", email });
    const [account] = await client.db.select().from(users).where(eq(users.id, order.userId!));
    expect(account).toMatchObject({ email, username: email, autoCreated: true });
    const read = await client.get(`/v1/order/read/${orderId}`);
    expect(read.body.payload.products).toMatchObject([{ product: listing.productId, price: 0, quantity: 1 }]);
    expect(read.body.payload.products[0].creds).toHaveLength(1);
    const mails = await client.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/find-order?id=${orderId}`);
    const [key] = await client.db.select().from(redeemKeys).where(eq(redeemKeys.orderId, orderId));
    expect(key).toMatchObject({ redeemedByUserId: account.id });
    expect(key.usedAt).not.toBeNull();

    const again = await redeem(client, email, code);
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(REDEEM_KEY_INVALID);
  });

  it("gives the order to the existing account with that email", async () => {
    const { code } = await oneKey();
    const customer = await createCustomer(client.db);
    const answer = await redeem(client, customer.email.toUpperCase(), code);
    expect(answer.status).toBe(201);
    const [order] = await client.db.select().from(orders).where(eq(orders.id, answer.body.payload.orderId));
    expect(order.userId).toBe(customer.id);
  });

  it("answers unknown, used, revoked, expired and malformed keys with the same 400", async () => {
    const { code: used } = await oneKey();
    expect((await redeem(client, freshEmail(), used)).status).toBe(201);
    const { code: revoked } = await oneKey();
    const [revokedRow] = (await listKeys(client.db, { page: 1 })).records;
    expect(await revokeKeys(client.db, [revokedRow._id])).toEqual([revokedRow._id]);
    const { listing } = await oneKey();
    const { codes: expired } = await generateKeys(client.db, {
      optionId: listing.optionId,
      durationDays: 30,
      quantity: 1,
      count: 1,
      expiresAt: new Date(Date.now() - 1000),
    });
    for (const key of [used, revoked, expired[0], "ABCDE-FGHJK-MNPQR-STVWX", "not a key", "x".repeat(64)]) {
      const email = freshEmail();
      const answer = await redeem(client, email, key);
      expect(answer.status, key).toBe(400);
      expect(answer.body.message, key).toBe(REDEEM_KEY_INVALID);
      const accounts = await client.db.select().from(users).where(eq(users.email, email));
      expect(accounts).toEqual([]);
    }
  });

  it("sold out: a clear 409, no order, no account, and the key stays unused", async () => {
    const { listing, code } = await oneKey(1, 2);
    const email = freshEmail();
    const answer = await redeem(client, email, code);
    expect(answer.status).toBe(409);
    expect(answer.body.message).toMatch(/only 1 left.*Your key has not been used/);
    const [key] = (await listKeys(client.db, { page: 1, optionId: listing.optionId })).records;
    expect(key.state).toBe("unused");
    expect(await client.db.select().from(orderProducts).where(eq(orderProducts.optionId, listing.optionId))).toEqual(
      [],
    );
    expect(await client.db.select().from(users).where(eq(users.email, email))).toEqual([]);
    const [{ available }] = await client.db
      .select({ available: sql<number>`count(*)`.mapWith(Number) })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, listing.optionId));
    expect(available).toBe(1);
  });

  it("revokes only unused keys", async () => {
    const { code } = await oneKey();
    const answer = await redeem(client, freshEmail(), code);
    const [used] = await client.db.select().from(redeemKeys).where(eq(redeemKeys.orderId, answer.body.payload.orderId));
    expect(await revokeKeys(client.db, [used.id])).toEqual([]);
  });

  it("refuses without a human check, and limits attempts per address", async () => {
    const { code } = await oneKey();
    const noCheck = await client.post("/v1/order/redeemKey", { email: freshEmail(), key: code });
    expect(noCheck.status).toBe(400);
    const strict = await createShopTestApi({ RATE_LIMIT_SCALE: "1" });
    try {
      const ip = nextIp();
      const statuses = [];
      for (let attempt = 0; attempt < 11; attempt++) {
        statuses.push((await redeem(strict, freshEmail(), "ABCDE-FGHJK-MNPQR-STVWX", ip)).status);
      }
      expect(statuses.slice(0, 10).every((status) => status === 400)).toBe(true);
      expect(statuses[10]).toBe(429);
    } finally {
      await strict.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("redeem keys under concurrency (PostgreSQL)", () => {
  it("32 concurrent redemptions of one key make exactly one order", async () => {
    const { listing, code } = await oneKey(40);
    const answers = await Promise.all(Array.from({ length: 32 }, () => redeem(client, freshEmail(), code)));
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 400)).toHaveLength(31);
    const lines = await client.db.select().from(orderProducts).where(eq(orderProducts.optionId, listing.optionId));
    expect(lines).toHaveLength(1);
    const claimed = await client.db
      .select()
      .from(stockCredentials)
      .where(sql`${stockCredentials.optionId} = ${listing.optionId} and ${stockCredentials.status} <> 'available'`);
    expect(claimed).toHaveLength(1);
  });
});
