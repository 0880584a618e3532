import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { NO_SPINS_MESSAGE, REEL_STOPS, symbolAtStop } from "../../contract/slots";
import { newId } from "../../api/db/ids";
import { couponRedemptions, coupons, orders, spinAccounts, spins, users } from "../../api/db/schema";
import { evaluateCoupon, redeemCoupon } from "../../api/services/coupons/discounts";
import { readSpinBalance, scoreStops, spin } from "../../api/services/coupons/daily-slots";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * The slots game's /v1 rules (ADR 022, docs/api-slots.md) on PGlite and, with TEST_DATABASE_URL, on
 * PostgreSQL, where the races at the end run.
 */

const DAY_MS = 86_400_000;

async function customerMadeAt(client: ShopTestApi, createdAt: string, balanceCents = 0) {
  const customer = await createCustomer(client.db, { balanceCents });
  await client.db
    .update(users)
    .set({ createdAt: new Date(createdAt) })
    .where(eq(users.id, customer.id));
  return customer;
}

async function countRows(client: ShopTestApi, userId: string) {
  const [made] = await client.db
    .select({ coupons: sql<number>`count(*)`.mapWith(Number) })
    .from(coupons)
    .where(eq(coupons.userId, userId));
  const [spun] = await client.db
    .select({ spins: sql<number>`count(*)`.mapWith(Number) })
    .from(spins)
    .where(eq(spins.userId, userId));
  return { coupons: made.coupons, spins: spun.spins };
}

describe("the slots game", () => {
  let client: ShopTestApi;
  let listing: Awaited<ReturnType<typeof createListing>>;
  beforeAll(async () => {
    client = await createShopTestApi();
    listing = await createListing(client.db, { priceCents: 2000, stock: 50 });
  });
  afterAll(() => client.close());

  it("needs a signed-in customer", async () => {
    for (const answer of [
      await client.get("/v1/spinwheel/spins"),
      await client.post("/v1/spinwheel/spin", {}),
      await client.get("/v1/spinwheel/coupons"),
    ]) {
      expect(answer).toMatchObject({ status: 401, body: { success: false, message: "Please sign in to continue" } });
    }
  });

  it("a new account holds one spin; spinning issues a single-use coupon bound to it; a second spin is 409", async () => {
    const customer = await createCustomer(client.db);
    const before = await client.get("/v1/spinwheel/spins", { token: customer.token });
    expect(before.status).toBe(200);
    expect(before.body.payload).toMatchObject({ spinsAvailable: 1, maxSpins: 3 });
    expect(before.body.payload.nextSpinAt).toMatch(/T00:00:00\.000Z$/);

    const answer = await client.post("/v1/spinwheel/spin", {}, { token: customer.token });
    expect(answer.status).toBe(201);
    const result = answer.body.payload;
    expect(result).toMatchObject({ spinsRemaining: 0, couponUsed: false, spinId: expect.any(String) });
    expect(result.stops).toHaveLength(3);
    for (const stop of result.stops) expect(stop >= 0 && stop < REEL_STOPS).toBe(true);
    expect(result.symbols).toEqual(result.stops.map((stop: number) => symbolAtStop(stop).id));
    expect(result.discount).toBe(scoreStops(result.stops).discount);
    expect(result.couponCode).toMatch(/^SLOT-[2-9A-HJ-NP-Z]{10}$/);

    const [coupon] = await client.db.select().from(coupons).where(eq(coupons.code, result.couponCode));
    expect(coupon).toMatchObject({
      kind: "percent",
      amount: result.discount,
      maxUses: 1,
      perCustomerLimit: 1,
      userId: customer.id,
      source: "slots",
      active: true,
    });
    expect(coupon.expiresAt!.getTime() - coupon.createdAt.getTime()).toBe(7 * DAY_MS);
    expect(new Date(result.couponExpiresAt).getTime()).toBe(coupon.expiresAt!.getTime());

    const again = await client.post("/v1/spinwheel/spin", { visualResult: 30 }, { token: customer.token });
    expect(again).toMatchObject({ status: 409, body: { success: false, message: NO_SPINS_MESSAGE } });
    expect(await countRows(client, customer.id)).toEqual({ coupons: 1, spins: 1 });
    expect((await client.get("/v1/spinwheel/spins", { token: customer.token })).body.payload.spinsAvailable).toBe(0);

    const listed = await client.get("/v1/spinwheel/coupons", { token: customer.token });
    expect(listed.body.payload.records).toEqual([
      { code: result.couponCode, discount: result.discount, expiresAt: result.couponExpiresAt },
    ]);
  });

  it("visualResult changes nothing: every answer is the score of the server's own stops", async () => {
    const discounts: number[] = [];
    for (const visualResult of [30, 30, 30, 30, 30, 30, 30, 30, "30", { discount: 30 }, null, -5]) {
      const customer = await createCustomer(client.db);
      const answer = await client.post("/v1/spinwheel/spin", { visualResult }, { token: customer.token });
      expect(answer.status).toBe(201);
      expect(answer.body.payload.discount).toBe(scoreStops(answer.body.payload.stops).discount);
      const [coupon] = await client.db.select().from(coupons).where(eq(coupons.code, answer.body.payload.couponCode));
      expect(coupon.amount).toBe(answer.body.payload.discount);
      discounts.push(answer.body.payload.discount);
    }
    // Twelve jackpots in a row happen once in about 10^23 fair spins.
    expect(discounts.every((discount) => discount === 30)).toBe(false);
  });

  it("accrues one spin per UTC day from the account's creation, at most 3 saved, with no job", async () => {
    const customer = await customerMadeAt(client, "2026-11-20T22:00:00Z");
    const held = async (at: string) => (await readSpinBalance(client.db, customer.id, new Date(at))).spinsAvailable;
    expect(await held("2026-11-20T23:59:59Z")).toBe(1);
    expect(await held("2026-11-21T00:00:00Z")).toBe(2);
    expect(await held("2026-11-22T12:00:00Z")).toBe(3);
    expect(await held("2026-11-30T12:00:00Z")).toBe(3);
    expect((await readSpinBalance(client.db, customer.id, new Date("2026-11-30T12:00:00Z"))).nextSpinAt).toBeNull();

    const now = new Date("2026-11-30T12:00:00Z");
    expect((await spin(client.db, customer.id, { now })).spinsRemaining).toBe(2);
    expect((await spin(client.db, customer.id, { now })).spinsRemaining).toBe(1);
    expect((await spin(client.db, customer.id, { now })).spinsRemaining).toBe(0);
    await expect(spin(client.db, customer.id, { now })).rejects.toMatchObject({
      status: 409,
      message: NO_SPINS_MESSAGE,
    });
    expect(await held("2026-11-30T23:59:59Z")).toBe(0);
    expect((await readSpinBalance(client.db, customer.id, now)).nextSpinAt).toBe("2026-12-01T00:00:00.000Z");
    expect(await held("2026-12-01T00:00:00Z")).toBe(1);
    expect(await held("2026-12-02T00:00:00Z")).toBe(2);

    // Spending at the cap starts the count again from there: the day's spin is not lost nor doubled.
    expect((await spin(client.db, customer.id, { now: new Date("2026-12-10T08:00:00Z") })).spinsRemaining).toBe(2);
    expect(await held("2026-12-10T23:00:00Z")).toBe(2);
    expect(await held("2026-12-11T00:00:00Z")).toBe(3);
    expect(await countRows(client, customer.id)).toEqual({ coupons: 4, spins: 4 });
  });

  it("answers a spin again to its owner only", async () => {
    const owner = await createCustomer(client.db);
    const stranger = await createCustomer(client.db);
    const made = (await client.post("/v1/spinwheel/spin", {}, { token: owner.token })).body.payload;
    const again = await client.get(`/v1/spinwheel/spin/${made.spinId}`, { token: owner.token });
    expect(again.status).toBe(200);
    const { spinsRemaining: _remaining, ...result } = made;
    expect(again.body.payload).toEqual(result);
    for (const path of [
      `/v1/spinwheel/spin/${made.spinId}`,
      `/v1/spinwheel/spin/${newId()}`,
      "/v1/spinwheel/spin/x'--",
    ]) {
      const answer = await client.get(path, { token: path.endsWith(made.spinId) ? stranger.token : owner.token });
      expect(answer).toMatchObject({ status: 404, body: { message: "Spin not found" } });
    }
  });

  it("the coupon takes its discount off the owner's order once; nobody else can use it", async () => {
    const owner = await createCustomer(client.db, { balanceCents: 10_000 });
    const stranger = await createCustomer(client.db, { balanceCents: 10_000 });
    const won = (await client.post("/v1/spinwheel/spin", {}, { token: owner.token })).body.payload;

    await addToCart(client, stranger.token, listing.optionId, 1);
    const theirs = await client.post("/v1/cart/applyCoupon", { coupon: won.couponCode }, { token: stranger.token });
    expect(theirs).toMatchObject({ status: 400, body: { message: "Invalid coupon code" } });
    const theirOrder = await client.post(
      "/v1/order/create",
      { coupon: won.couponCode, paymentMethod: "balance" },
      { token: stranger.token },
    );
    expect(theirOrder).toMatchObject({ status: 400, body: { message: "Invalid coupon code" } });
    const asGuest = await client.post("/v1/cart/applyCouponPublic", {
      cartItems: [{ optionId: listing.optionId, duration: 30, quantity: 1 }],
      coupon: won.couponCode,
    });
    expect(asGuest).toMatchObject({ status: 400, body: { message: "Invalid coupon code" } });

    await addToCart(client, owner.token, listing.optionId, 1);
    const applied = await client.post(
      "/v1/cart/applyCoupon",
      { coupon: won.couponCode.toLowerCase() },
      { token: owner.token },
    );
    expect(applied.body.payload).toBe((2000 * (100 - won.discount)) / 10_000);
    const paid = await client.post(
      "/v1/order/create",
      { coupon: won.couponCode, paymentMethod: "balance" },
      { token: owner.token },
    );
    expect(paid.status).toBe(201);
    const [order] = await client.db.select().from(orders).where(eq(orders.id, paid.body.payload.orderId));
    expect(order).toMatchObject({ subtotalCents: 2000, discountCents: 20 * won.discount, status: "completed" });
    expect((await client.get(`/v1/spinwheel/spin/${won.spinId}`, { token: owner.token })).body.payload.couponUsed).toBe(
      true,
    );
    expect((await client.get("/v1/spinwheel/coupons", { token: owner.token })).body.payload.records).toEqual([]);

    await addToCart(client, owner.token, listing.optionId, 1);
    const twice = await client.post(
      "/v1/order/create",
      { coupon: won.couponCode, paymentMethod: "balance" },
      { token: owner.token },
    );
    expect(twice).toMatchObject({ status: 409, body: { message: "You have already used this coupon" } });
  });

  it("an expired coupon is refused and no longer listed", async () => {
    const owner = await createCustomer(client.db);
    const won = (await client.post("/v1/spinwheel/spin", {}, { token: owner.token })).body.payload;
    await client.db
      .update(coupons)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(coupons.code, won.couponCode));
    await addToCart(client, owner.token, listing.optionId, 1);
    const applied = await client.post("/v1/cart/applyCoupon", { coupon: won.couponCode }, { token: owner.token });
    expect(applied).toMatchObject({ status: 400, body: { message: "This coupon has expired" } });
    expect((await client.get("/v1/spinwheel/coupons", { token: owner.token })).body.payload.records).toEqual([]);
  });
});

/* PGlite runs one transaction at a time: these pass there whatever the code does, so they run on PostgreSQL. */
describe.skipIf(!process.env.TEST_DATABASE_URL)("the slots game under concurrency (PostgreSQL)", () => {
  let client: ShopTestApi;
  beforeAll(async () => {
    client = await createShopTestApi();
  });
  afterAll(() => client.close());

  it("10 concurrent spins with one spin available make one spin and one coupon", async () => {
    const customer = await createCustomer(client.db);
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post("/v1/spinwheel/spin", {}, { token: customer.token })),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const refused = answers.filter((answer) => answer.status === 409);
    expect(refused).toHaveLength(9);
    for (const answer of refused) expect(answer.body.message).toBe(NO_SPINS_MESSAGE);
    expect(await countRows(client, customer.id)).toEqual({ coupons: 1, spins: 1 });
    const [account] = await client.db.select().from(spinAccounts).where(eq(spinAccounts.userId, customer.id));
    expect(account.countedFrom).toBe(new Date().toISOString().slice(0, 10));
  });

  it("10 concurrent spins with three saved make exactly three", async () => {
    const customer = await customerMadeAt(client, new Date(Date.now() - 5 * DAY_MS).toISOString());
    const answers = await Promise.all(
      Array.from({ length: 10 }, () => client.post("/v1/spinwheel/spin", {}, { token: customer.token })),
    );
    const made = answers.filter((answer) => answer.status === 201);
    expect(made.map((answer) => answer.body.payload.spinsRemaining).sort()).toEqual([0, 1, 2]);
    expect(await countRows(client, customer.id)).toEqual({ coupons: 3, spins: 3 });
  });

  it("a won coupon in 5 concurrent checkouts is used by one order", async () => {
    const listing = await createListing(client.db, { priceCents: 1000, stock: 10 });
    const owner = await createCustomer(client.db, { balanceCents: 10_000 });
    const won = (await client.post("/v1/spinwheel/spin", {}, { token: owner.token })).body.payload;
    await addToCart(client, owner.token, listing.optionId, 1);
    const answers = await Promise.all(
      Array.from({ length: 5 }, () =>
        client.post("/v1/order/create", { coupon: won.couponCode, paymentMethod: "balance" }, { token: owner.token }),
      ),
    );
    expect(answers.filter((answer) => answer.status === 201)).toHaveLength(1);
    const [coupon] = await client.db.select().from(coupons).where(eq(coupons.code, won.couponCode));
    expect(coupon.usedCount).toBe(1);
    const discounted = await client.db.select().from(orders).where(eq(orders.couponId, coupon.id));
    expect(discounted).toMatchObject([{ discountCents: 10 * won.discount }]);
  });

  it("two orders redeeming the coupon at the same moment: one use, whatever else they lock", async () => {
    // The coupon's own guard, without the checkout's lock on the customer: two transactions that each
    // check the coupon, write an order and count the use.
    const listing = await createListing(client.db, { priceCents: 1000, stock: 10 });
    const owner = await createCustomer(client.db);
    const won = (await client.post("/v1/spinwheel/spin", {}, { token: owner.token })).body.payload;
    const lines = [{ productId: listing.productId, priceCents: 1000 }];
    const results = await Promise.allSettled(
      Array.from({ length: 2 }, () =>
        client.db.transaction(async (tx) => {
          const { coupon, discountCents } = await evaluateCoupon(tx, won.couponCode, lines, owner.id);
          const [order] = await tx
            .insert(orders)
            .values({
              userId: owner.id,
              email: owner.email,
              subtotalCents: 1000,
              discountCents,
              priceCents: 1000 - discountCents,
              paymentMethod: "sandbox",
              couponId: coupon.id,
            })
            .returning({ id: orders.id });
          await tx.execute(sql`select pg_sleep(0.05)`);
          await redeemCoupon(tx, coupon, owner.id, order.id);
        }),
      ),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(1);
    const [coupon] = await client.db.select().from(coupons).where(eq(coupons.code, won.couponCode));
    expect(coupon.usedCount).toBe(1);
    const redemptions = await client.db
      .select()
      .from(couponRedemptions)
      .where(and(eq(couponRedemptions.couponId, coupon.id), eq(couponRedemptions.userId, owner.id)));
    expect(redemptions).toHaveLength(1);
  });
});
