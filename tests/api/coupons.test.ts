import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { couponProducts, couponRedemptions, coupons, orders } from "../../api/db/schema";
import { type CouponCheck, type CouponRules, computeDiscount } from "../../api/services/coupons/discounts";
import { RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

const now = new Date("2026-11-22T01:00:00Z");
const rules = (overrides: Partial<CouponRules> = {}): CouponRules => ({
  kind: "percent",
  amount: 10,
  minAmountCents: 0,
  maxUses: null,
  usedCount: 0,
  perCustomerLimit: null,
  userId: null,
  active: true,
  expiresAt: null,
  productIds: [],
  ...overrides,
});
const guest: CouponCheck = { customerId: null, customerUses: 0, now };
const lines = [
  { productId: "A", priceCents: 1000 },
  { productId: "B", priceCents: 2999 },
];

describe("computeDiscount", () => {
  it("takes a percentage, rounded to the cent, or a fixed amount never above the eligible total", () => {
    expect(computeDiscount(rules({ amount: 15 }), lines, guest)).toEqual({
      ok: true,
      subtotalCents: 3999,
      discountCents: 600,
      totalCents: 3399,
    });
    expect(computeDiscount(rules({ amount: 100 }), lines, guest)).toMatchObject({ discountCents: 3999, totalCents: 0 });
    expect(computeDiscount(rules({ kind: "fixed", amount: 500 }), lines, guest)).toMatchObject({
      discountCents: 500,
      totalCents: 3499,
    });
    expect(computeDiscount(rules({ kind: "fixed", amount: 10_000 }), lines, guest)).toMatchObject({
      discountCents: 3999,
      totalCents: 0,
    });
  });

  it("discounts only the lines of the products it is restricted to", () => {
    expect(computeDiscount(rules({ amount: 50, productIds: ["A"] }), lines, guest)).toMatchObject({
      discountCents: 500,
      totalCents: 3499,
    });
    expect(computeDiscount(rules({ kind: "fixed", amount: 5000, productIds: ["A"] }), lines, guest)).toMatchObject({
      discountCents: 1000,
    });
    expect(computeDiscount(rules({ productIds: ["C"] }), lines, guest)).toEqual({
      ok: false,
      status: 400,
      message: "This coupon does not apply to the items in your cart",
    });
  });

  it("refuses with the rule's message", () => {
    const refusal = (coupon: CouponRules, check = guest) => {
      const result = computeDiscount(coupon, lines, check);
      return result.ok ? "applied" : result.message;
    };
    expect(refusal(rules({ active: false }))).toBe("Invalid coupon code");
    expect(refusal(rules({ userId: "someone" }))).toBe("Invalid coupon code");
    expect(refusal(rules({ userId: "me" }), { ...guest, customerId: "me" })).toBe("applied");
    expect(refusal(rules({ expiresAt: now }))).toBe("This coupon has expired");
    expect(refusal(rules({ expiresAt: new Date(now.getTime() + 1000) }))).toBe("applied");
    expect(refusal(rules({ maxUses: 3, usedCount: 3 }))).toBe("This coupon has reached its usage limit");
    expect(refusal(rules({ maxUses: 3, usedCount: 2 }))).toBe("applied");
    expect(refusal(rules({ perCustomerLimit: 1 }), { ...guest, customerId: "me", customerUses: 1 })).toBe(
      "You have already used this coupon",
    );
    expect(refusal(rules({ minAmountCents: 4000 }))).toBe("Minimum order amount is $40.00");
    expect(refusal(rules({ minAmountCents: 3999 }))).toBe("applied");
  });
});

describe("coupon endpoints", () => {
  let client: ShopTestApi;
  let cheap: Awaited<ReturnType<typeof createListing>>;
  let dear: Awaited<ReturnType<typeof createListing>>;
  const cartItems = () => [
    { optionId: cheap.optionId, duration: 30, quantity: 2 },
    { optionId: dear.optionId, duration: 30, quantity: 1 },
  ];

  beforeAll(async () => {
    client = await createShopTestApi();
    cheap = await createListing(client.db, { priceCents: 500, stock: 20 });
    dear = await createListing(client.db, { priceCents: 2000, stock: 20 });
    await client.db.insert(coupons).values([
      { code: "TENOFF", kind: "percent", amount: 10 },
      { code: "FIVE", kind: "fixed", amount: 500 },
      { code: "OLD", kind: "percent", amount: 10, expiresAt: new Date("2020-01-01T00:00:00Z") },
      { code: "OFF", kind: "percent", amount: 10, active: false },
      { code: "FULL", kind: "percent", amount: 10, maxUses: 2, usedCount: 2 },
      { code: "BIG", kind: "percent", amount: 10, minAmountCents: 10_000 },
      { code: "ONCEEACH", kind: "percent", amount: 20, perCustomerLimit: 1 },
    ]);
    const [onlyCheap] = await client.db
      .insert(coupons)
      .values({ code: "CHEAPHALF", kind: "percent", amount: 50 })
      .returning({ id: coupons.id });
    await client.db.insert(couponProducts).values({ couponId: onlyCheap.id, productId: cheap.productId });
  });
  afterAll(() => client.close());

  it("applyCouponPublic answers the new price for a guest cart, and cartPrice for an empty coupon", async () => {
    const applied = await client.post("/v1/cart/applyCouponPublic", { cartItems: cartItems(), coupon: "tenoff" });
    expect(applied.status).toBe(200);
    expect(applied.body.payload).toBe(27);
    expect(applied.body.message).toBe("Coupon applied: you save $3.00");
    expect(
      (await client.post("/v1/cart/applyCouponPublic", { cartItems: cartItems(), coupon: "FIVE" })).body.payload,
    ).toBe(25);
    expect(
      (await client.post("/v1/cart/applyCouponPublic", { cartItems: cartItems(), coupon: "CHEAPHALF" })).body.payload,
    ).toBe(25);
    const reset = await client.post("/v1/cart/applyCouponPublic", { cartItems: cartItems(), coupon: "" });
    expect(reset.status).toBe(200);
    expect(reset.body.payload).toBe(30);
  });

  it("answers each rule's message", async () => {
    const message = async (coupon: string, items = cartItems()) => {
      const answer = await client.post("/v1/cart/applyCouponPublic", { cartItems: items, coupon });
      expect(answer.body.success).toBe(false);
      return [answer.status, answer.body.message];
    };
    expect(await message("NOPE")).toEqual([400, "Invalid coupon code"]);
    expect(await message("OFF")).toEqual([400, "Invalid coupon code"]);
    expect(await message("OLD")).toEqual([400, "This coupon has expired"]);
    expect(await message("FULL")).toEqual([409, "This coupon has reached its usage limit"]);
    expect(await message("BIG")).toEqual([400, "Minimum order amount is $100.00"]);
    expect(await message("CHEAPHALF", [{ optionId: dear.optionId, duration: 30, quantity: 1 }])).toEqual([
      400,
      "This coupon does not apply to the items in your cart",
    ]);
  });

  it("applyCoupon prices the signed-in customer's server cart, and per-user coupons work only for their owner", async () => {
    const owner = await createCustomer(client.db);
    const stranger = await createCustomer(client.db);
    await client.db
      .insert(coupons)
      .values({ code: "SPIN-ABC", kind: "percent", amount: 30, userId: owner.id, source: "slots" });
    for (const customer of [owner, stranger]) {
      await addToCart(client, customer.token, cheap.optionId, 2);
      await addToCart(client, customer.token, dear.optionId, 1);
    }
    const mine = await client.post("/v1/cart/applyCoupon", { coupon: "SPIN-ABC" }, { token: owner.token });
    expect(mine.status).toBe(200);
    expect(mine.body.payload).toBe(21);
    const theirs = await client.post("/v1/cart/applyCoupon", { coupon: "SPIN-ABC" }, { token: stranger.token });
    expect(theirs.status).toBe(400);
    expect(theirs.body.message).toBe("Invalid coupon code");
    const asGuest = await client.post("/v1/cart/applyCouponPublic", { cartItems: cartItems(), coupon: "SPIN-ABC" });
    expect(asGuest.body.message).toBe("Invalid coupon code");
    const reset = await client.post("/v1/cart/applyCoupon", { coupon: "" }, { token: owner.token });
    expect(reset.body.payload).toBe(30);
  });

  it("an order counts the use, the per-customer limit then refuses, and an expired order gives the use back", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 10_000 });
    await addToCart(client, customer.token, dear.optionId, 1);
    const paid = await client.post(
      "/v1/order/create",
      { coupon: "ONCEEACH", paymentMethod: "balance" },
      { token: customer.token },
    );
    expect(paid.status).toBe(201);
    expect((await client.get(`/v1/order/read/${paid.body.payload.orderId}`)).body.payload.price).toBe(16);

    await addToCart(client, customer.token, dear.optionId, 1);
    const again = await client.post("/v1/cart/applyCoupon", { coupon: "ONCEEACH" }, { token: customer.token });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe("You have already used this coupon");
    const orderAgain = await client.post(
      "/v1/order/create",
      { coupon: "ONCEEACH", paymentMethod: "balance" },
      { token: customer.token },
    );
    expect(orderAgain.status).toBe(409);
    expect(orderAgain.body.message).toBe("You have already used this coupon");

    const [five] = await client.db.select().from(coupons).where(eq(coupons.code, "FIVE"));
    const pending = await client.post(
      "/v1/order/create",
      { coupon: "five", paymentMethod: "sandbox" },
      { token: customer.token },
    );
    expect(pending.status).toBe(201);
    const [order] = await client.db.select().from(orders).where(eq(orders.id, pending.body.payload.orderId));
    expect(order).toMatchObject({ subtotalCents: 2000, discountCents: 500, priceCents: 1500, couponId: five.id });
    expect((await client.db.select().from(coupons).where(eq(coupons.id, five.id)))[0].usedCount).toBe(1);

    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    expect((await client.db.select().from(coupons).where(eq(coupons.id, five.id)))[0].usedCount).toBe(0);
    expect(await client.db.select().from(couponRedemptions).where(eq(couponRedemptions.couponId, five.id))).toEqual([]);
  });
});
