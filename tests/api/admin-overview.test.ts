import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, productOptions, products, requests, tickets } from "../../api/db/schema";
import { readOverview } from "../../api/services/staff/overview";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * The back office's overview (issue 16): sales by period and by day, best sellers, low stock and what
 * waits for staff, from known orders on a fresh database. PGlite and PostgreSQL.
 */

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

const DAY_MS = 24 * 60 * 60 * 1000;

async function paidOrder(listing: Awaited<ReturnType<typeof createListing>>, quantity: number) {
  const customer = await createCustomer(client.db, { balanceCents: 100_000 });
  await addToCart(client, customer.token, listing.optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
  expect(created.status).toBe(201);
  return { orderId: created.body.payload.orderId as string, customer };
}

describe("the overview", () => {
  it("adds up sales today, in 7 and 30 days and per day, ranks best sellers, and lists low stock", async () => {
    const popular = await createListing(client.db, { title: "Popular", stock: 10, priceCents: 500 });
    const niche = await createListing(client.db, { title: "Niche", stock: 3, priceCents: 1200 });
    await paidOrder(popular, 2);
    await paidOrder(popular, 1);
    const { orderId: lastWeek } = await paidOrder(niche, 1);
    const { orderId: longAgo } = await paidOrder(popular, 1);
    const now = new Date();
    await client.db
      .update(orders)
      .set({ paidAt: new Date(now.getTime() - 3 * DAY_MS) })
      .where(eq(orders.id, lastWeek));
    await client.db
      .update(orders)
      .set({ paidAt: new Date(now.getTime() - 40 * DAY_MS) })
      .where(eq(orders.id, longAgo));
    // 2 of Niche's 3 are left (1 sold): under a threshold of 5; Popular (6 left) is over its 2.
    await client.db.update(productOptions).set({ lowStockThreshold: 5 }).where(eq(productOptions.id, niche.optionId));
    await client.db.update(productOptions).set({ lowStockThreshold: 2 }).where(eq(productOptions.id, popular.optionId));

    const overview = await readOverview(client.db, now);
    expect(overview.sales.today).toEqual({ orders: 2, revenueCents: 1500 });
    expect(overview.sales.last7Days).toEqual({ orders: 3, revenueCents: 2700 });
    expect(overview.sales.last30Days).toEqual({ orders: 3, revenueCents: 2700 });
    expect(overview.perDay).toHaveLength(30);
    expect(overview.perDay.at(-1)).toEqual({ day: now.toISOString().slice(0, 10), orders: 2, revenueCents: 1500 });
    const threeDaysAgo = new Date(now.getTime() - 3 * DAY_MS).toISOString().slice(0, 10);
    expect(overview.perDay.find((day) => day.day === threeDaysAgo)).toMatchObject({ orders: 1, revenueCents: 1200 });
    expect(overview.perDay.reduce((sum, day) => sum + day.orders, 0)).toBe(3);
    expect(overview.topProducts).toEqual([
      { _id: popular.productId, title: "Popular", quantity: 3, revenueCents: 1500 },
      { _id: niche.productId, title: "Niche", quantity: 1, revenueCents: 1200 },
    ]);
    expect(overview.lowStock).toEqual([
      expect.objectContaining({ optionId: niche.optionId, product: "Niche", free: 2, threshold: 5 }),
    ]);
    // A hidden product's options are not the operator's worry here.
    await client.db.update(products).set({ active: false }).where(eq(products.id, niche.productId));
    expect((await readOverview(client.db, now)).lowStock).toEqual([]);
  });

  it("counts tickets whose last word is the customer's and pending requests, through /v1/admin/overview", async () => {
    const support = await createCustomer(client.db, { role: "support" });
    const customer = await createCustomer(client.db);
    const before = (await client.get("/v1/admin/overview", { token: support.token })).body.payload.waiting;
    const opened = await client.post(
      "/v1/ticket/create",
      { orderId: "", subject: "Help", message: "Hello" },
      { token: customer.token },
    );
    expect(opened.status).toBe(201);
    const answered = await client.post(
      "/v1/ticket/create",
      { orderId: "", subject: "Answered", message: "Hi" },
      { token: customer.token },
    );
    await client.db.update(tickets).set({ awaitingStaff: false }).where(eq(tickets.id, answered.body.payload._id));
    const after = await client.get("/v1/admin/overview", { token: support.token });
    expect(after.status).toBe(200);
    expect(after.body.payload.waiting.ticketsWaiting).toBe(before.ticketsWaiting + 1);
    expect(after.body.payload.waiting.pendingRequests).toBe(
      (await client.db.select().from(requests).where(eq(requests.status, "pending"))).length,
    );
    const refused = await client.get("/v1/admin/overview", { token: customer.token });
    expect(refused.status).toBe(403);
  });
});
