import { desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, couponProducts, coupons, orders } from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi, nextIp } from "../support/shop";

/*
 * Coupons made in the back office (ADR 026): the form's rules, edit, deactivate, delete, audit, and proof
 * that checkout honours every limit they are saved with. PGlite and PostgreSQL.
 */

let client: ShopTestApi;
let manager: Awaited<ReturnType<typeof createCustomer>>;
let cheap: Awaited<ReturnType<typeof createListing>>;
let dear: Awaited<ReturnType<typeof createListing>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  manager = await createCustomer(client.db, { role: "manager" });
  cheap = await createListing(client.db, { title: "Cheap plan", priceCents: 500, stock: 100 });
  dear = await createListing(client.db, { title: "Dear plan", priceCents: 2000, stock: 100 });
});
afterAll(() => client.close());

let codeCounter = 0;
const freshCode = (prefix: string) => `${prefix}-${Date.now().toString(36)}${++codeCounter}`;

async function createCoupon(fields: Record<string, unknown>) {
  const answer = await client.post("/v1/admin/coupons", fields, { token: manager.token });
  expect(answer.status, answer.body.message).toBe(201);
  return answer.body.payload as { _id: string; code: string; usedCount: number };
}

/** A customer's checkout of `lines` with the coupon: the answer and, when placed, the order's discount. */
async function checkoutWith(code: string, lines: { optionId: string; quantity?: number }[], buyer?: { token: string }) {
  const customer = buyer ?? (await createCustomer(client.db));
  for (const line of lines) await addToCart(client, customer.token, line.optionId, line.quantity ?? 1);
  const answer = await client.post(
    "/v1/order/create",
    { coupon: code, paymentMethod: "sandbox" },
    { token: customer.token, ip: nextIp() },
  );
  if (answer.status !== 201) {
    // A refused checkout leaves the lines in the cart; empty it for the customer's next try.
    for (const line of lines) await client.delete(`/v1/cart/remove/${line.optionId}`, { token: customer.token });
    return { status: answer.status, message: answer.body.message as string };
  }
  const [order] = await client.db.select().from(orders).where(eq(orders.id, answer.body.payload.orderId));
  return { status: answer.status, discountCents: order.discountCents, priceCents: order.priceCents };
}

const couponRow = async (id: string) => (await client.db.select().from(coupons).where(eq(coupons.id, id)))[0];

describe("creating coupons", () => {
  it("stores what the form says, audited, and lists it with its uses", async () => {
    const code = freshCode("Spring");
    const answer = await client.post(
      "/v1/admin/coupons",
      {
        code,
        kind: "fixed",
        amount: 2.5,
        minAmount: 10,
        maxUses: 100,
        perCustomerLimit: 2,
        expiresAt: "2031-01-31T23:59:00Z",
        productIds: [cheap.productId, dear.productId, cheap.productId],
        active: true,
      },
      { token: manager.token, ip: "198.51.100.77" },
    );
    expect(answer.status).toBe(201);
    expect(answer.body.message).toBe(`Coupon ${code} created: $2.50 off`);
    expect(answer.body.payload).toEqual({
      _id: expect.any(String),
      code,
      kind: "fixed",
      amount: 2.5,
      minAmount: 10,
      maxUses: 100,
      usedCount: 0,
      perCustomerLimit: 2,
      expiresAt: "2031-01-31T23:59:00.000Z",
      products: [
        { _id: cheap.productId, title: "Cheap plan" },
        { _id: dear.productId, title: "Dear plan" },
      ],
      active: true,
      source: "admin",
      ownerEmail: null,
      createdAt: expect.any(String),
    });
    expect(await couponRow(answer.body.payload._id)).toMatchObject({
      amount: 250,
      minAmountCents: 1000,
      source: "admin",
    });
    const [entry] = await client.db.select().from(auditLog).where(eq(auditLog.objectId, answer.body.payload._id));
    expect(entry).toMatchObject({
      actorUserId: manager.id,
      action: "coupon.create",
      objectType: "coupon",
      objectLabel: code,
      ip: "198.51.100.77",
      changes: {
        before: null,
        after: expect.objectContaining({ amount: "$2.50", minAmount: "$10.00", maxUses: 100, active: true }),
      },
    });

    const listed = await client.get(`/v1/admin/coupons?search=${code.toLowerCase()}`, { token: manager.token });
    expect(listed.body.payload.records.map((record: { code: string }) => record.code)).toEqual([code]);
    expect(listed.body.payload.pager).toMatchObject({ page: 1, total: 1 });
    const slotsOnly = await client.get(`/v1/admin/coupons?source=slots&search=${code}`, { token: manager.token });
    expect(slotsOnly.body.payload.records).toEqual([]);
  });

  it("refuses a taken code (any letter case) and bad values as form errors, creating nothing", async () => {
    const code = freshCode("Taken");
    await createCoupon({ code, kind: "percent", amount: 10 });
    const taken = await client.post(
      "/v1/admin/coupons",
      { code: code.toUpperCase(), kind: "percent", amount: 5 },
      { token: manager.token },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ code: ["Another coupon already has this code"] });

    const refusals: [Record<string, unknown>, string, string][] = [
      [{ code: "ab", kind: "percent", amount: 10 }, "code", "A code is 3 to 64 letters, digits, - or _"],
      [{ code: "has space", kind: "percent", amount: 10 }, "code", "A code is 3 to 64 letters, digits, - or _"],
      [{ code: freshCode("p"), kind: "percent", amount: 0 }, "amount", "Enter the discount"],
      [
        { code: freshCode("p"), kind: "percent", amount: 101 },
        "amount",
        "A percent coupon takes 1 to 100 (whole percent)",
      ],
      [
        { code: freshCode("p"), kind: "percent", amount: 12.5 },
        "amount",
        "A percent coupon takes 1 to 100 (whole percent)",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 1.005 },
        "amount",
        "A fixed discount is $0.01 to $10,000, in cents at most",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, minAmount: -1 },
        "minAmount",
        "Enter a minimum of $0 or more, in cents at most",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, maxUses: 0 },
        "maxUses",
        "Enter a whole number from 1, or leave it empty for no limit",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, perCustomerLimit: 1.5 },
        "perCustomerLimit",
        "Enter a whole number from 1, or leave it empty for no limit",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, expiresAt: "next week" },
        "expiresAt",
        "Enter a date and time",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, productIds: ["nope"] },
        "productIds.0",
        "Choose products from the list",
      ],
      [
        { code: freshCode("f"), kind: "fixed", amount: 5, productIds: [newId()] },
        "productIds",
        "Some of the chosen products do not exist any more. Choose again.",
      ],
    ];
    const before = (await client.db.select({ id: coupons.id }).from(coupons)).length;
    for (const [body, field, message] of refusals) {
      const answer = await client.post("/v1/admin/coupons", body, { token: manager.token });
      expect(answer.status, message).toBe(400);
      expect(answer.body.errors[field], JSON.stringify(body)).toEqual([message]);
    }
    expect((await client.db.select({ id: coupons.id }).from(coupons)).length).toBe(before);
  });

  it("offers every product, hidden ones too, to restrict a coupon to", async () => {
    const choices = await client.get("/v1/admin/coupons/products", { token: manager.token });
    expect(choices.body.payload).toEqual(
      expect.arrayContaining([{ _id: cheap.productId, title: "Cheap plan", active: true }]),
    );
  });
});

describe("checkout honours a coupon made in the back office", () => {
  it("a percent or fixed discount", async () => {
    const percent = await createCoupon({ code: freshCode("Pct"), kind: "percent", amount: 15 });
    expect(await checkoutWith(percent.code.toLowerCase(), [{ optionId: dear.optionId }])).toMatchObject({
      status: 201,
      discountCents: 300,
      priceCents: 1700,
    });
    const fixed = await createCoupon({ code: freshCode("Fix"), kind: "fixed", amount: 3.25 });
    expect(await checkoutWith(fixed.code, [{ optionId: dear.optionId }])).toMatchObject({
      status: 201,
      discountCents: 325,
      priceCents: 1675,
    });
    expect((await couponRow(fixed._id)).usedCount).toBe(1);
  });

  it("the minimum amount", async () => {
    const coupon = await createCoupon({ code: freshCode("Min"), kind: "percent", amount: 10, minAmount: 15 });
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId, quantity: 2 }])).toEqual({
      status: 400,
      message: "Minimum order amount is $15.00",
    });
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId, quantity: 3 }])).toMatchObject({
      status: 201,
      discountCents: 150,
    });
  });

  it("the products it applies to: only their lines are discounted, and a cart without them is refused", async () => {
    const coupon = await createCoupon({
      code: freshCode("Only"),
      kind: "percent",
      amount: 50,
      productIds: [cheap.productId],
    });
    expect(await checkoutWith(coupon.code, [{ optionId: dear.optionId }])).toEqual({
      status: 400,
      message: "This coupon does not apply to the items in your cart",
    });
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId }, { optionId: dear.optionId }])).toMatchObject({
      status: 201,
      discountCents: 250,
      priceCents: 2250,
    });
  });

  it("the expiry", async () => {
    const past = await createCoupon({
      code: freshCode("Old"),
      kind: "percent",
      amount: 10,
      expiresAt: "2020-01-01T00:00:00Z",
    });
    expect(await checkoutWith(past.code, [{ optionId: cheap.optionId }])).toEqual({
      status: 400,
      message: "This coupon has expired",
    });
    const future = await createCoupon({
      code: freshCode("New"),
      kind: "percent",
      amount: 10,
      expiresAt: new Date(Date.now() + 86_400_000).toISOString(),
    });
    expect((await checkoutWith(future.code, [{ optionId: cheap.optionId }])).status).toBe(201);
  });

  it("the total uses", async () => {
    const coupon = await createCoupon({ code: freshCode("Two"), kind: "percent", amount: 10, maxUses: 2 });
    expect((await checkoutWith(coupon.code, [{ optionId: cheap.optionId }])).status).toBe(201);
    expect((await checkoutWith(coupon.code, [{ optionId: cheap.optionId }])).status).toBe(201);
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId }])).toEqual({
      status: 409,
      message: "This coupon has reached its usage limit",
    });
    const listed = await client.get(`/v1/admin/coupons/${coupon._id}`, { token: manager.token });
    expect(listed.body.payload).toMatchObject({ usedCount: 2, maxUses: 2 });
  });

  it("the uses per customer", async () => {
    const coupon = await createCoupon({ code: freshCode("Each"), kind: "percent", amount: 10, perCustomerLimit: 1 });
    const buyer = await createCustomer(client.db);
    expect((await checkoutWith(coupon.code, [{ optionId: cheap.optionId }], buyer)).status).toBe(201);
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId }], buyer)).toEqual({
      status: 409,
      message: "You have already used this coupon",
    });
    expect((await checkoutWith(coupon.code, [{ optionId: cheap.optionId }])).status).toBe(201);
  });

  it("deactivation: the coupon stops applying", async () => {
    const coupon = await createCoupon({ code: freshCode("Stop"), kind: "percent", amount: 10 });
    const answer = await client.post(`/v1/admin/coupons/${coupon._id}/deactivate`, {}, { token: manager.token });
    expect(answer.status).toBe(200);
    expect(answer.body.payload.active).toBe(false);
    expect(await checkoutWith(coupon.code, [{ optionId: cheap.optionId }])).toEqual({
      status: 400,
      message: "Invalid coupon code",
    });
    const entries = await client.db.select().from(auditLog).where(eq(auditLog.objectId, coupon._id));
    expect(entries.map((entry) => entry.action).sort()).toEqual(["coupon.create", "coupon.deactivate"]);
  });
});

describe("editing and deleting coupons", () => {
  it("saves every field, audits only what changed, and writes nothing when nothing changed", async () => {
    const coupon = await createCoupon({
      code: freshCode("Edit"),
      kind: "percent",
      amount: 10,
      productIds: [cheap.productId],
    });
    const renamed = freshCode("Edited");
    const body = {
      code: renamed,
      kind: "fixed",
      amount: 4,
      minAmount: 0,
      maxUses: 5,
      perCustomerLimit: null,
      expiresAt: null,
      productIds: [dear.productId],
      active: true,
    };
    const saved = await client.put(`/v1/admin/coupons/${coupon._id}`, body, { token: manager.token });
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe(`Coupon ${renamed} saved`);
    expect(saved.body.payload).toMatchObject({
      code: renamed,
      kind: "fixed",
      amount: 4,
      maxUses: 5,
      products: [{ _id: dear.productId, title: "Dear plan" }],
    });
    expect(await client.db.select().from(couponProducts).where(eq(couponProducts.couponId, coupon._id))).toEqual([
      { couponId: coupon._id, productId: dear.productId },
    ]);
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(eq(auditLog.objectId, coupon._id))
      .orderBy(desc(auditLog.createdAt));
    expect(entry).toMatchObject({
      action: "coupon.update",
      changes: {
        before: { code: coupon.code, kind: "percent", amount: "10%", maxUses: null, products: [cheap.productId] },
        after: { code: renamed, kind: "fixed", amount: "$4.00", maxUses: 5, products: [dear.productId] },
      },
    });
    await client.put(`/v1/admin/coupons/${coupon._id}`, body, { token: manager.token });
    expect(await client.db.select().from(auditLog).where(eq(auditLog.objectId, coupon._id))).toHaveLength(2);
    // The code of the edited coupon is what checkout takes now.
    expect(await checkoutWith(renamed, [{ optionId: dear.optionId }])).toMatchObject({
      status: 201,
      discountCents: 400,
    });
  });

  it("refuses total uses below the uses so far, a taken code, an unknown id", async () => {
    const other = await createCoupon({ code: freshCode("Other"), kind: "percent", amount: 10 });
    const coupon = await createCoupon({ code: freshCode("Used"), kind: "percent", amount: 10 });
    await checkoutWith(coupon.code, [{ optionId: cheap.optionId }]);
    await checkoutWith(coupon.code, [{ optionId: cheap.optionId }]);
    const base = { code: coupon.code, kind: "percent", amount: 10 };
    const below = await client.put(
      `/v1/admin/coupons/${coupon._id}`,
      { ...base, maxUses: 1 },
      { token: manager.token },
    );
    expect(below.status).toBe(400);
    expect(below.body.errors).toEqual({ maxUses: ["It has been used 2 times already: allow at least 2 uses"] });
    const taken = await client.put(
      `/v1/admin/coupons/${coupon._id}`,
      { ...base, code: other.code.toLowerCase() },
      { token: manager.token },
    );
    expect(taken.status).toBe(409);
    expect(taken.body.errors).toEqual({ code: ["Another coupon already has this code"] });
    expect(
      (await client.put(`/v1/admin/coupons/${coupon._id}`, { ...base, maxUses: 2 }, { token: manager.token })).status,
    ).toBe(200);
    expect((await client.put(`/v1/admin/coupons/${newId()}`, base, { token: manager.token })).status).toBe(404);
    expect((await client.get(`/v1/admin/coupons/${newId()}`, { token: manager.token })).status).toBe(404);
  });

  it("deletes only a coupon no order used; a used one is a 409 and stays", async () => {
    const unused = await createCoupon({ code: freshCode("Gone"), kind: "percent", amount: 10 });
    const removed = await client.delete(`/v1/admin/coupons/${unused._id}`, { token: manager.token });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe(`Coupon ${unused.code} deleted`);
    expect(await couponRow(unused._id)).toBeUndefined();
    const entries = await client.db.select().from(auditLog).where(eq(auditLog.objectId, unused._id));
    expect(entries.map((entry) => entry.action).sort()).toEqual(["coupon.create", "coupon.delete"]);

    const used = await createCoupon({ code: freshCode("Kept"), kind: "percent", amount: 10 });
    await checkoutWith(used.code, [{ optionId: cheap.optionId }]);
    const refused = await client.delete(`/v1/admin/coupons/${used._id}`, { token: manager.token });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(
      "This coupon has been used on an order, so it stays for the record: deactivate it instead.",
    );
    expect(await couponRow(used._id)).toBeDefined();
  });

  it("lists slots prizes apart; they can be deactivated but not edited or deleted", async () => {
    const winner = await createCustomer(client.db);
    const [prize] = await client.db
      .insert(coupons)
      .values({
        code: freshCode("SLOT"),
        kind: "percent",
        amount: 15,
        source: "slots",
        userId: winner.id,
        perCustomerLimit: 1,
      })
      .returning();
    const slots = await client.get(`/v1/admin/coupons?source=slots&search=${winner.email}`, { token: manager.token });
    expect(slots.body.payload.records).toMatchObject([{ _id: prize.id, source: "slots", ownerEmail: winner.email }]);
    const store = await client.get(`/v1/admin/coupons?search=${prize.code}`, { token: manager.token });
    expect(store.body.payload.records).toEqual([]);
    const edit = await client.put(
      `/v1/admin/coupons/${prize.id}`,
      { code: prize.code, kind: "percent", amount: 90 },
      { token: manager.token },
    );
    expect(edit).toMatchObject({
      status: 409,
      body: { message: "A slots prize cannot be edited or deleted; deactivate it instead." },
    });
    expect((await client.delete(`/v1/admin/coupons/${prize.id}`, { token: manager.token })).status).toBe(409);
    expect((await client.post(`/v1/admin/coupons/${prize.id}/deactivate`, {}, { token: manager.token })).status).toBe(
      200,
    );
    expect(await couponRow(prize.id)).toMatchObject({ amount: 15, active: false });
  });

  it("is for managers and owners only", async () => {
    const support = await createCustomer(client.db, { role: "support" });
    expect((await client.get("/v1/admin/coupons", { token: support.token })).status).toBe(403);
    expect(
      (
        await client.post(
          "/v1/admin/coupons",
          { code: freshCode("Sup"), kind: "percent", amount: 5 },
          { token: support.token },
        )
      ).status,
    ).toBe(403);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("coupons under concurrency (PostgreSQL)", () => {
  it("an edit lowering the total uses while a checkout is counting a use waits for it, and then refuses", async () => {
    const coupon = await createCoupon({ code: freshCode("Race"), kind: "percent", amount: 10, maxUses: 10 });
    await client.db.update(coupons).set({ usedCount: 3 }).where(eq(coupons.id, coupon._id));
    // A checkout's transaction that has counted two uses and not yet committed.
    let commit!: () => void;
    let counted!: () => void;
    const hasCounted = new Promise<void>((resolve) => (counted = resolve));
    const checkout = client.db.transaction(async (tx) => {
      await tx
        .update(coupons)
        .set({ usedCount: sql`${coupons.usedCount} + 2` })
        .where(eq(coupons.id, coupon._id));
      counted();
      await new Promise<void>((resolve) => (commit = resolve));
    });
    await hasCounted;
    const edit = client.put(
      `/v1/admin/coupons/${coupon._id}`,
      { code: coupon.code, kind: "percent", amount: 10, maxUses: 4 },
      { token: manager.token },
    );
    // Without the row lock the edit would judge the 3 committed uses, pass, and break on the 5th.
    await new Promise((resolve) => setTimeout(resolve, 300));
    commit();
    await checkout;
    const answer = await edit;
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toEqual({ maxUses: ["It has been used 5 times already: allow at least 5 uses"] });
    expect(await couponRow(coupon._id)).toMatchObject({ usedCount: 5, maxUses: 10 });
  });
});
