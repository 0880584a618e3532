import { readFileSync, readdirSync } from "node:fs";
import { and, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../api/db/ids";
import { auditLog, mailOutbox, orderProducts, orders, payments, stockCredentials, users } from "../../api/db/schema";
import { ORDER_ACTION_MESSAGES } from "../../api/services/orders/admin-actions";
import { RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { submitSandboxPayment } from "../../api/services/payments/events";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * An order's status after payment (issue 26, ADR 037): a paid order is completed only once every line is
 * delivered; until staff deliver its manual lines it is processing, in the API, the lists, the mails and the
 * back office. The 48-hour hiding and the expiry job are for unpaid orders only.
 */

let client: ShopTestApi;
let owner: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  owner = await createCustomer(client.db, { role: "owner" });
});
afterAll(() => client.close());

type Listing = Awaited<ReturnType<typeof createListing>>;
type Customer = Awaited<ReturnType<typeof createCustomer>>;

const auto = (stock = 3) => createListing(client.db, { priceCents: 500, stock });
const manual = () => createListing(client.db, { priceCents: 500, fulfilMode: "manual" });
const admin = (path: string, body?: unknown) =>
  body === undefined
    ? client.get(`/v1/admin${path}`, { token: owner.token })
    : client.post(`/v1/admin${path}`, body, { token: owner.token });

/** An order of `lines` ([listing, quantity]) placed through /v1 with the sandbox gateway, still unpaid. */
async function placeOrder(lines: [Listing, number][], customer?: Customer) {
  const buyer = customer ?? (await createCustomer(client.db));
  for (const [listing, quantity] of lines) await addToCart(client, buyer.token, listing.optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: buyer.token });
  expect(created.status, created.body.message).toBe(201);
  const orderId: string = created.body.payload.orderId;
  const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, payment, customer: buyer };
}

async function paidOrder(lines: [Listing, number][], customer?: Customer) {
  const placed = await placeOrder(lines, customer);
  expect((await submitSandboxPayment(client.deps, placed.payment.id, "paid")).outcome).toBe("applied");
  return placed;
}

const readOrder = async (orderId: string) => (await client.get(`/v1/order/read/${orderId}`)).body.payload;
const subjectsOf = async (orderId: string) =>
  (
    await client.db
      .select({ subject: mailOutbox.subject })
      .from(mailOutbox)
      .where(eq(mailOutbox.orderId, orderId))
      .orderBy(mailOutbox.createdAt)
  ).map((row) => row.subject);
const lineOf = async (orderId: string, listing: Listing) =>
  (await admin(`/orders/${orderId}`)).body.payload.lines.find(
    (line: { optionId: string; isReplacement: boolean }) => line.optionId === listing.optionId && !line.isReplacement,
  );
const deliver = async (orderId: string, listing: Listing, credentials: string) =>
  admin(`/orders/${orderId}/deliver`, { lineId: (await lineOf(orderId, listing))._id, credentials });

describe("a paid order with a manual line", () => {
  it("is processing, not completed, until staff deliver it: in the API, the mails, the profile and the back office", async () => {
    const gold = await manual();
    const overview = async () => (await admin("/overview")).body.payload;
    const before = await overview();
    const { orderId, customer } = await paidOrder([[gold, 1]]);

    const read = await readOrder(orderId);
    expect(read.status).toBe("processing");
    expect(read.products[0]).toMatchObject({ fullFillmode: "manual", creds: [] });
    expect(read.products[0].deliveryNotes).not.toBe("");
    expect(await subjectsOf(orderId)).toEqual([`Your order ${orderId.slice(0, 8)} is being processed`]);
    const [confirmation] = await client.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId));
    expect(confirmation.text).toContain("It is paid and being processed");
    const profile = (await client.get("/v1/user/profile", { token: customer.token })).body.payload;
    expect(profile).toMatchObject({ completedOrders: 0, spent: 5 });

    // A paid sale, and a delivery waiting for staff.
    const paid = await overview();
    expect(paid.sales.today.orders).toBe(before.sales.today.orders + 1);
    expect(paid.waiting.manualDeliveries).toBe(before.waiting.manualDeliveries + 1);
    const page = (await admin(`/orders/${orderId}`)).body.payload;
    expect(page.status).toBe("processing");
    expect(page.lines[0]).toMatchObject({ toDeliver: 1, delivered: 0 });
    const waiting = await admin(`/orders?waiting=1&order=${orderId}`);
    expect(waiting.body.payload.records).toMatchObject([{ _id: orderId, waitingForDelivery: true }]);
    const byStatus = await admin(`/orders?status=processing&order=${orderId}`);
    expect(byStatus.body.payload.records).toHaveLength(1);
    expect((await admin(`/orders?status=completed&order=${orderId}`)).body.payload.records).toEqual([]);

    const delivered = await deliver(orderId, gold, "hero:secret");
    expect(delivered).toMatchObject({
      status: 200,
      body: {
        payload: { delivered: 1, status: "completed" },
        message: ORDER_ACTION_MESSAGES.delivered(1, "completed"),
      },
    });
    const done = await readOrder(orderId);
    expect(done.status).toBe("completed");
    expect(done.products[0].creds).toEqual(["hero:secret"]);
    expect(await subjectsOf(orderId)).toEqual([
      `Your order ${orderId.slice(0, 8)} is being processed`,
      `Your order ${orderId.slice(0, 8)} is delivered`,
    ]);
    expect((await client.get("/v1/user/profile", { token: customer.token })).body.payload).toMatchObject({
      completedOrders: 1,
      spent: 5,
    });
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, orderId), eq(auditLog.action, "order.deliver")));
    expect(entry.changes).toMatchObject({ before: { status: "processing" }, after: { status: "completed" } });
    expect((await admin(`/orders?waiting=1&order=${orderId}`)).body.payload.records).toEqual([]);
    expect((await overview()).waiting.manualDeliveries).toBe(before.waiting.manualDeliveries);
  });

  it("paid from the balance, the checkout's answer says it is being processed", async () => {
    const gold = await manual();
    const customer = await createCustomer(client.db, { balanceCents: 500 });
    await addToCart(client, customer.token, gold.optionId, 1);
    const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(created).toMatchObject({
      status: 201,
      body: {
        message: "Thank you! Your order is paid and being processed.",
        payload: { status: "processing" },
      },
    });

    const shop = await auto();
    await addToCart(client, customer.token, shop.optionId, 1);
    await client.db.update(users).set({ balanceCents: 500 }).where(eq(users.id, customer.id));
    const plain = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(plain.body).toMatchObject({
      message: "Thank you! Your order is complete.",
      payload: { status: "completed" },
    });
  });

  it("mixed with an automatic line: the automatic credentials show at once; completed only after the last manual line", async () => {
    const shop = await auto();
    const gold = await manual();
    const silver = await manual();
    const { orderId } = await paidOrder([
      [shop, 1],
      [gold, 1],
      [silver, 2],
    ]);
    const read = await readOrder(orderId);
    expect(read.status).toBe("processing");
    const byOption = (view: typeof read, listing: Listing) =>
      view.products.find((line: { productOption: string }) => line.productOption === listing.optionId);
    expect(byOption(read, shop).creds).toHaveLength(1);
    expect(byOption(read, gold).creds).toEqual([]);

    const first = await deliver(orderId, gold, "gold:one");
    expect(first.body.payload).toEqual({ delivered: 1, status: "processing" });
    expect(first.body.message).toBe(ORDER_ACTION_MESSAGES.delivered(1, "processing"));
    expect((await readOrder(orderId)).status).toBe("processing");
    const [, partly] = await client.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.orderId, orderId))
      .orderBy(mailOutbox.createdAt);
    expect(partly.subject).toBe(`Part of your order ${orderId.slice(0, 8)} is delivered`);
    expect(partly.text).toContain("The rest is still being processed");

    const last = await deliver(orderId, silver, "silver:one\nsilver:two");
    expect(last.body.payload).toEqual({ delivered: 2, status: "completed" });
    const done = await readOrder(orderId);
    expect(done.status).toBe("completed");
    expect(byOption(done, silver).creds).toEqual(["silver:one", "silver:two"]);
  });

  it("refunding the waiting manual line instead ends the processing", async () => {
    const shop = await auto();
    const gold = await manual();
    const { orderId } = await paidOrder([
      [shop, 1],
      [gold, 1],
    ]);
    const line = await lineOf(orderId, gold);
    const refunded = await admin(`/orders/${orderId}/refund`, { lineIds: [line._id] });
    expect(refunded).toMatchObject({ status: 200, body: { payload: { refunded: 5, status: "completed" } } });
    expect((await readOrder(orderId)).status).toBe("completed");
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, orderId), eq(auditLog.action, "order.refund")));
    expect(entry.changes).toMatchObject({ before: { status: "processing" }, after: { status: "completed" } });
    const refusal = await deliver(orderId, gold, "late:one");
    expect(refusal).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.deliverRefunded } });
  });

  it("paid late after part of the stock was sold: processing, then partiallyComplete; the late credit is never refunded twice", async () => {
    const shop = await auto(2);
    const gold = await manual();
    const { orderId, customer } = await placeOrder([
      [shop, 2],
      [gold, 1],
    ]);
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    const [sold] = await client.db
      .select({ id: stockCredentials.id })
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, shop.optionId), eq(stockCredentials.status, "available")))
      .limit(1);
    await client.db.update(stockCredentials).set({ status: "void" }).where(eq(stockCredentials.id, sold.id));
    const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
    expect((await submitSandboxPayment(client.deps, payment.id, "paid")).outcome).toBe("applied");

    expect((await readOrder(orderId)).status).toBe("processing");
    const [{ balanceCents }] = await client.db.select().from(users).where(eq(users.id, customer.id));
    expect(balanceCents).toBe(500);
    // $15 paid, $5 credited for the unit sold out: $10 is left to refund, $5 on each line.
    expect((await lineOf(orderId, shop)).refundable).toBe(5);
    expect((await lineOf(orderId, gold)).refundable).toBe(5);

    expect((await deliver(orderId, gold, "gold:late")).body.payload.status).toBe("partiallyComplete");
    expect((await readOrder(orderId)).status).toBe("partiallyComplete");
  });

  it("a second payment of a processing order delivers and mails nothing again, and staff cannot confirm one", async () => {
    const gold = await manual();
    const { orderId, payment } = await paidOrder([[gold, 1]]);
    const [second] = await client.db
      .insert(payments)
      .values({
        purpose: "order",
        orderId,
        userId: payment.userId,
        gateway: "sandbox",
        amountCents: payment.amountCents,
        currency: "USD",
      })
      .returning();
    const confirm = await admin(`/orders/${orderId}/confirm-payment`, {
      paymentId: second.id,
      reference: "sandbox_second",
      reason: "Paid twice at the provider",
    });
    expect(confirm).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.orderAlreadyPaid } });

    expect((await submitSandboxPayment(client.deps, second.id, "paid")).outcome).toBe("applied");
    expect((await readOrder(orderId)).status).toBe("processing");
    expect(await subjectsOf(orderId)).toHaveLength(1);
  });
});

describe("hiding and expiry are for unpaid orders only", () => {
  it("a paid order waiting for delivery is never expired, and never hidden after 48 hours", async () => {
    const gold = await manual();
    const shop = await auto();
    const customer = await createCustomer(client.db);
    const waiting = await paidOrder([[gold, 1]], customer);
    const unpaid = await placeOrder([[shop, 1]], customer);
    const longAgo = new Date(Date.now() - 49 * 3_600_000);
    for (const orderId of [waiting.orderId, unpaid.orderId]) {
      await client.db
        .update(orders)
        .set({ createdAt: longAgo, expiresAt: new Date(longAgo.getTime() + RESERVATION_MS) })
        .where(eq(orders.id, orderId));
    }

    const list = async (status: string) =>
      (await client.post("/v1/order/read", { page: 1, status }, { token: customer.token })).body.payload.records.map(
        (order: { _id: string; status: string }) => [order._id, order.status],
      );
    expect(await list("")).toEqual([[waiting.orderId, "processing"]]);
    expect(await list("processing")).toEqual([[waiting.orderId, "processing"]]);
    expect(await list("pending")).toEqual([]);
    expect(await list("completed")).toEqual([]);

    expect(await expireUnpaidOrders(client.db)).toBeGreaterThanOrEqual(1);
    expect((await readOrder(unpaid.orderId)).status).toBe("expired");
    expect((await readOrder(waiting.orderId)).status).toBe("processing");
  });
});

describe("the migration to the processing status", () => {
  it("marks paid orders with a manual line still to deliver processing, and leaves the others", async () => {
    const gold = await manual();
    const shop = await auto();
    const insertOrder = async (status: "completed" | "partiallyComplete", listing: Listing, refunded = false) => {
      const id = newId();
      await client.db.insert(orders).values({
        id,
        email: "old@example.com",
        status,
        subtotalCents: 500,
        priceCents: 500,
        paymentMethod: "balance",
      });
      await client.db.insert(orderProducts).values({
        orderId: id,
        productId: listing.productId,
        optionId: listing.optionId,
        title: "Old order",
        fulfilMode: listing === gold ? "manual" : "auto",
        durationDays: 30,
        unitPriceCents: 500,
        quantity: 1,
        priceCents: 500,
        refundedAt: refunded ? new Date() : null,
      });
      return id;
    };
    const waitingCompleted = await insertOrder("completed", gold);
    const waitingPartly = await insertOrder("partiallyComplete", gold);
    const refunded = await insertOrder("completed", gold, true);
    const automatic = await insertOrder("completed", shop);

    const folder = new URL("../../api/db/migrations/", import.meta.url);
    const file = readdirSync(folder).find((name) => name.endsWith("_order_status_processing.sql"))!;
    const [backfill] = readFileSync(new URL(file, folder), "utf8").split("--> statement-breakpoint");
    await client.db.execute(sql.raw(backfill));

    const statuses = await client.db.select({ id: orders.id, status: orders.status }).from(orders);
    const statusOf = (id: string) => statuses.find((row) => row.id === id)?.status;
    expect([waitingCompleted, waitingPartly, refunded, automatic].map(statusOf)).toEqual([
      "processing",
      "processing",
      "completed",
      "completed",
    ]);
    await expect(
      client.db
        .update(orders)
        .set({ status: "shipped" as never })
        .where(eq(orders.id, automatic)),
    ).rejects.toThrow();
  });
});
