import { and, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  balanceLedger,
  coupons,
  deliveredCredentials,
  mailOutbox,
  orderProducts,
  orders,
  payments,
  requests,
  stockCredentials,
  users,
} from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { signSandboxEvent } from "../../api/payments/sandbox";
import { ORDER_ACTION_MESSAGES } from "../../api/services/orders/admin-actions";
import { ADMIN_ORDER_REFUSALS } from "../../api/services/orders/admin-view";
import { paidShares, refundableByLine } from "../../api/services/orders/admin-refunds";
import { issueChallenge } from "../../api/services/guards/human-check";
import { RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { submitSandboxPayment } from "../../api/services/payments/events";
import { REQUEST_MESSAGES } from "../../api/services/support/request-records";
import { createOtherRequest } from "../../api/services/support/requests";
import { rejectRequest } from "../../api/services/support/admin-requests";
import {
  type Answer,
  type ShopTestApi,
  addToCart,
  createCustomer,
  createListing,
  createShopTestApi,
} from "../support/shop";

/*
 * The back office's orders (issue 17, ADR 028): the search, an order's page, the credentials shown on
 * demand, and each action with its refusals, on PGlite and (TEST_DATABASE_URL) PostgreSQL. The races at
 * the end run on PostgreSQL only: PGlite runs one transaction at a time.
 */

let client: ShopTestApi;
let owner: Awaited<ReturnType<typeof createCustomer>>;
let manager: Awaited<ReturnType<typeof createCustomer>>;
let support: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  owner = await createCustomer(client.db, { role: "owner" });
  manager = await createCustomer(client.db, { role: "manager" });
  support = await createCustomer(client.db, { role: "support" });
});
afterAll(() => client.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;
type Listing = Awaited<ReturnType<typeof createListing>>;

const get = (path: string, token = owner.token) => client.get(`/v1/admin${path}`, { token });
const post = (path: string, body: unknown = {}, token = owner.token) =>
  client.post(`/v1/admin${path}`, body, { token });

/** An order placed through /v1 by a customer: `lines` of [listing, quantity]; a hosted one stays pending. */
async function placeOrder(
  lines: [Listing, number][],
  options: { method?: string; coupon?: string; message?: string; customer?: Customer } = {},
) {
  const method = options.method ?? "sandbox";
  const total = lines.reduce((sum, [, quantity]) => sum + quantity * 500, 0);
  const customer =
    options.customer ?? (await createCustomer(client.db, { balanceCents: method === "balance" ? total : 0 }));
  for (const [listing, quantity] of lines) await addToCart(client, customer.token, listing.optionId, quantity);
  const created = await client.post(
    "/v1/order/create",
    { paymentMethod: method, coupon: options.coupon ?? "", message: options.message ?? "" },
    { token: customer.token },
  );
  expect(created.status, created.body.message).toBe(201);
  const orderId: string = created.body.payload.orderId;
  const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, payment, customer };
}

async function paidOrder(lines: [Listing, number][], options: Parameters<typeof placeOrder>[1] = {}) {
  const placed = await placeOrder(lines, options);
  expect((await submitSandboxPayment(client.deps, placed.payment.id, "paid")).outcome).toBe("applied");
  return placed;
}

const listing = (options: Parameters<typeof createListing>[1] = {}) =>
  createListing(client.db, { priceCents: 500, ...options });

async function deliveredOn(orderId: string) {
  return client.db
    .select({ id: deliveredCredentials.id, credentialId: deliveredCredentials.credentialId })
    .from(deliveredCredentials)
    .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
    .where(eq(orderProducts.orderId, orderId));
}

/** One of the listing's available credentials leaves stock, as if sold while an order waited for its payment. */
async function sellOneOf(shop: Listing) {
  const [row] = await client.db
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .where(and(eq(stockCredentials.optionId, shop.optionId), eq(stockCredentials.status, "available")))
    .limit(1);
  await client.db.update(stockCredentials).set({ status: "void" }).where(eq(stockCredentials.id, row.id));
}

// Oldest first: the tests read the mails in the order they were queued.
const mailsOf = (orderId: string) =>
  client.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, orderId)).orderBy(mailOutbox.createdAt);
const auditOf = (orderId: string) => client.db.select().from(auditLog).where(eq(auditLog.objectId, orderId));
const balanceOf = async (userId: string) =>
  (await client.db.select({ cents: users.balanceCents }).from(users).where(eq(users.id, userId)))[0].cents;

function sandboxWebhook(payment: { id: string; amountCents: number }) {
  const event = signSandboxEvent(
    { paymentId: payment.id, amountCents: payment.amountCents, currency: "USD", outcome: "paid" },
    client.config,
  );
  return () => client.post("/v1/webhooks/sandbox", event.body, { headers: event.headers });
}

let searchShop: Listing | undefined;
/** An order written straight to the tables, for the search. */
async function insertOrder(values: Partial<typeof orders.$inferInsert> & { email: string; title?: string }) {
  const id = newId();
  const { title, ...order } = values;
  searchShop ??= await listing({ stock: 0 });
  const shop = searchShop;
  await client.db.insert(orders).values({
    id,
    status: "completed",
    subtotalCents: 500,
    priceCents: 500,
    paymentMethod: "balance",
    ...order,
  });
  await client.db.insert(orderProducts).values({
    orderId: id,
    productId: shop.productId,
    optionId: shop.optionId,
    title: title ?? "Search item",
    fulfilMode: "auto",
    durationDays: 30,
    unitPriceCents: 500,
    quantity: 1,
    priceCents: 500,
    createdAt: values.createdAt,
  });
  return id;
}

// ---------------------------------------------------------------- search

describe("GET /v1/admin/orders", () => {
  it("finds by order id (exact), email start, product, status, gateway, dates and customer, newest first", async () => {
    const tag = `s${newId().slice(0, 6).toLowerCase()}`;
    const day = (date: string) => new Date(`${date}T12:00:00Z`);
    const ids = {
      old: await insertOrder({ email: `${tag}.ann@example.com`, createdAt: day("2025-01-10"), title: "Vintage Vinyl" }),
      mid: await insertOrder({
        email: `${tag}.ann@example.com`,
        createdAt: day("2025-02-10"),
        status: "pending",
        paymentMethod: "stripe",
      }),
      late: await insertOrder({ email: `${tag}.bob@example.com`, createdAt: day("2025-03-10"), paymentMethod: "key" }),
    };
    const idsOf = (answer: Answer) => answer.body.payload.records.map((record: { _id: string }) => record._id);

    const byEmail = await get(`/orders?email=${tag.toUpperCase()}`);
    expect(byEmail.status).toBe(200);
    expect(idsOf(byEmail)).toEqual([ids.late, ids.mid, ids.old]);
    expect(byEmail.body.payload.records[0]).toMatchObject({
      email: `${tag}.bob@example.com`,
      paymentMethod: "key",
      price: 5,
      items: "1 × Search item",
      status: "completed",
    });
    expect(idsOf(await get(`/orders?email=${tag}.ann`))).toEqual([ids.mid, ids.old]);
    // The email's start, not any part of it; an id matches only whole.
    expect(idsOf(await get(`/orders?email=ann@example.com`))).not.toContain(ids.old);
    expect(idsOf(await get(`/orders?order=${ids.mid}`))).toEqual([ids.mid]);
    expect(idsOf(await get(`/orders?order=${ids.mid.slice(0, 10)}`))).toEqual([]);
    expect(idsOf(await get(`/orders?email=${tag}&product=vintage`))).toEqual([ids.old]);
    expect(idsOf(await get(`/orders?email=${tag}&status=pending`))).toEqual([ids.mid]);
    expect(idsOf(await get(`/orders?email=${tag}&gateway=key`))).toEqual([ids.late]);
    expect(idsOf(await get(`/orders?email=${tag}&from=2025-02-10&to=2025-03-09`))).toEqual([ids.mid]);
    expect(idsOf(await get(`/orders?email=${tag}&to=2025-01-10`))).toEqual([ids.old]);

    const buyer = await createCustomer(client.db);
    const theirs = await insertOrder({ email: buyer.email, userId: buyer.id });
    expect(idsOf(await get(`/orders?customer=${buyer.id}`))).toEqual([theirs]);

    expect((await get(`/orders?from=2025-13-40`)).status).toBe(400);
    expect((await get(`/orders?status=shipped`)).status).toBe(400);
    expect((await get(`/orders?page=0`)).status).toBe(400);
  });

  it("pages 50 at a time and lists paid orders waiting for a manual delivery", async () => {
    const tag = `p${newId().slice(0, 6).toLowerCase()}`;
    const start = Date.parse("2024-06-01T00:00:00Z");
    for (let index = 0; index < 55; index++) {
      await insertOrder({ email: `${tag}@example.com`, createdAt: new Date(start + index * 60_000) });
    }
    const first = await get(`/orders?email=${tag}`);
    expect(first.body.payload.records).toHaveLength(50);
    expect(first.body.payload.pager).toMatchObject({ page: 1, next: 2, total: 55, pages: 2 });
    const second = await get(`/orders?email=${tag}&page=2`);
    expect(second.body.payload.records).toHaveLength(5);
    expect(second.body.payload.records.at(-1).createdAt).toBe(new Date(start).toISOString());

    const manual = await listing({ fulfilMode: "manual" });
    const { orderId } = await placeOrder([[manual, 1]], { method: "balance" });
    const waiting = await get(`/orders?waiting=1&product=${encodeURIComponent(manual.title)}`);
    expect(waiting.body.payload.records.map((record: { _id: string }) => record._id)).toEqual([orderId]);
    expect(waiting.body.payload.records[0].waitingForDelivery).toBe(true);
  });
});

// ---------------------------------------------------------------- one order

describe("an order's page", () => {
  it("shows lines, payments with their webhook events, ledger entries, mails, message, coupon and customer, without credentials", async () => {
    const code = `TEN${newId().slice(0, 6)}`;
    await client.db.insert(coupons).values({ code, kind: "percent", amount: 10 });
    const shop = await listing({ stock: 3, optionTitle: "Family" });
    const { orderId, payment, customer } = await paidOrder([[shop, 2]], { coupon: code, message: "Please hurry" });

    const answer = await get(`/orders/${orderId}`);
    expect(answer.status).toBe(200);
    const order = answer.body.payload;
    expect(order).toMatchObject({
      _id: orderId,
      status: "completed",
      subtotal: 10,
      discount: 1,
      price: 9,
      message: "Please hurry",
      coupon: { code },
      customer: { _id: customer.id, email: customer.email },
      lines: [{ title: shop.title, option: "Family", quantity: 2, duration: 30, delivered: 2, refundable: 9 }],
      payments: [{ _id: payment.id, gateway: "sandbox", status: "paid", amount: 9, confirmable: false }],
      can: { cancel: false, refund: true },
    });
    expect(order.payments[0].events).toHaveLength(1);
    expect(order.mails).toEqual([
      expect.objectContaining({ to: customer.email, subject: expect.stringMatching(/is ready$/) }),
    ]);
    const [credential] = await client.db
      .select({ password: stockCredentials.password })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, shop.optionId));
    expect(JSON.stringify(order)).not.toContain(credential.password);

    expect((await get(`/orders/${newId()}`)).status).toBe(404);
    expect((await get(`/orders/not-an-id`)).status).toBe(404);
  });

  it("shows the credentials on demand to any staff role, and audits each viewing without them", async () => {
    const shop = await listing({ stock: 2 });
    const { orderId } = await paidOrder([[shop, 2]]);
    for (const token of [support.token, owner.token]) {
      const shown = await post(`/orders/${orderId}/credentials`, {}, token);
      expect(shown.status).toBe(200);
      expect(shown.body.payload[0].credentials).toHaveLength(2);
      expect(shown.body.payload[0].credentials[0]).toMatchObject({
        username: expect.any(String),
        password: expect.any(String),
      });
    }
    const entries = (await auditOf(orderId)).filter((entry) => entry.action === "order.credentials.view");
    expect(entries.map((entry) => entry.actorUserId).sort()).toEqual([support.id, owner.id].sort());
    expect(entries[0].changes).toEqual({ before: null, after: { credentialsShown: 2 } });
    const passwords = await client.db
      .select({ password: stockCredentials.password })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, shop.optionId));
    for (const { password } of passwords) expect(JSON.stringify(entries)).not.toContain(password);
  });

  it("lets support read but not act (403), and managers act", async () => {
    const shop = await listing({ stock: 1 });
    const { orderId } = await placeOrder([[shop, 1]]);
    expect((await get(`/orders/${orderId}`, support.token)).status).toBe(200);
    for (const action of ["cancel", "resend-mail", "refund", "deliver", "confirm-payment"]) {
      const refused = await post(`/orders/${orderId}/${action}`, {}, support.token);
      expect(refused.status, action).toBe(403);
    }
    expect((await post(`/orders/${orderId}/cancel`, {}, manager.token)).status).toBe(200);
  });
});

// ---------------------------------------------------------------- deliver

describe("delivering a manual line", () => {
  it("takes exactly the credentials the line needs, shows them to the customer, mails them, and does it once", async () => {
    const manual = await listing({ fulfilMode: "manual" });
    const { orderId, customer } = await placeOrder([[manual, 2]], { method: "balance" });
    const page = (await get(`/orders/${orderId}`)).body.payload;
    const lineId = page.lines[0]._id;
    expect(page.lines[0]).toMatchObject({ fulfilMode: "manual", toDeliver: 2, delivered: 0 });

    const tooFew = await post(`/orders/${orderId}/deliver`, { lineId, credentials: "gold1:pw1" });
    expect(tooFew).toMatchObject({ status: 400, body: { message: ORDER_ACTION_MESSAGES.wrongCount(2, 1) } });
    expect(tooFew.body.errors.credentials).toEqual([ORDER_ACTION_MESSAGES.wrongCount(2, 1)]);
    const malformed = await post(`/orders/${orderId}/deliver`, { lineId, credentials: "gold1:pw1\njust-a-name" });
    expect(malformed).toMatchObject({ status: 400, body: { message: "Line 2 is not username:password" } });
    const empty = await post(`/orders/${orderId}/deliver`, { lineId, credentials: "  " });
    expect(empty.status).toBe(400);
    expect((await post(`/orders/${orderId}/deliver`, { lineId: newId(), credentials: "a:b\nc:d" })).status).toBe(404);
    expect(await deliveredOn(orderId)).toHaveLength(0);

    const done = await post(`/orders/${orderId}/deliver`, { lineId, credentials: "gold1:pw:1\n\n  gold2 : pw2  \n" });
    expect(done).toMatchObject({ status: 200, body: { payload: { delivered: 2 } } });
    const view = (await client.get(`/v1/order/read/${orderId}`)).body.payload;
    expect(view.products[0]).toMatchObject({ creds: ["gold1:pw:1", "gold2:pw2"], credIndexes: [0, 1] });
    expect(Date.parse(view.products[0].expiry) - Date.now()).toBeGreaterThan(29 * 86_400_000);
    const stock = await client.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, manual.optionId));
    expect(stock.map((row) => row.status)).toEqual(["delivered", "delivered"]);
    const mails = await mailsOf(orderId);
    expect(mails.map((mail) => mail.subject)).toEqual([
      expect.stringMatching(/is being processed$/),
      `Your order ${orderId.slice(0, 8)} is delivered`,
    ]);
    expect(mails[1].to).toBe(customer.email);
    expect(mails[1].text).not.toContain("pw2");
    const [entry] = (await auditOf(orderId)).filter((row) => row.action === "order.deliver");
    expect(entry.changes).toEqual({
      before: { delivered: `${manual.title}: 0 of 2`, status: "processing" },
      after: { delivered: `${manual.title}: 2 of 2`, status: "completed" },
    });
    expect(JSON.stringify(entry)).not.toContain("pw2");

    const again = await post(`/orders/${orderId}/deliver`, { lineId, credentials: "gold3:pw3\ngold4:pw4" });
    expect(again).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.alreadyDelivered } });
    expect(await deliveredOn(orderId)).toHaveLength(2);
  });

  it("refuses an automatic line and an unpaid order", async () => {
    const auto = await listing({ stock: 2 });
    const paid = await paidOrder([[auto, 1]]);
    const autoLine = (await get(`/orders/${paid.orderId}`)).body.payload.lines[0]._id;
    const refused = await post(`/orders/${paid.orderId}/deliver`, { lineId: autoLine, credentials: "a:b" });
    expect(refused).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.deliverAuto } });

    const manual = await listing({ fulfilMode: "manual" });
    const pending = await placeOrder([[manual, 1]]);
    const line = (await get(`/orders/${pending.orderId}`)).body.payload.lines[0];
    expect(line.toDeliver).toBe(0);
    const unpaid = await post(`/orders/${pending.orderId}/deliver`, { lineId: line._id, credentials: "a:b" });
    expect(unpaid).toMatchObject({
      status: 409,
      body: { message: ORDER_ACTION_MESSAGES.deliverNotPaid("pending") },
    });
  });
});

// ---------------------------------------------------------------- confirm a payment by hand

describe("confirming a payment by hand", () => {
  it("needs the reason and the provider's reference, settles like a webhook, and a later webhook is a duplicate", async () => {
    const shop = await listing({ stock: 2 });
    const { orderId, payment, customer } = await placeOrder([[shop, 2]]);
    const reference = payment.providerReference!;
    const confirm = (body: Record<string, unknown>) => post(`/orders/${orderId}/confirm-payment`, body);

    expect((await confirm({ paymentId: payment.id, reference })).status).toBe(400);
    expect((await confirm({ paymentId: payment.id, reason: "Paid, webhook lost" })).status).toBe(400);
    const wrong = await confirm({ paymentId: payment.id, reference: "sandbox_other", reason: "Paid, webhook lost" });
    expect(wrong).toMatchObject({
      status: 400,
      body: { errors: { reference: [ORDER_ACTION_MESSAGES.referenceMismatch] } },
    });
    expect((await confirm({ paymentId: newId(), reference, reason: "Paid, webhook lost" })).status).toBe(404);
    expect(await deliveredOn(orderId)).toHaveLength(0);

    const done = await confirm({ paymentId: payment.id, reference, reason: "Paid, webhook lost" });
    expect(done).toMatchObject({ status: 200, body: { payload: { status: "completed" } } });
    expect(await deliveredOn(orderId)).toHaveLength(2);
    const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored).toMatchObject({
      status: "paid",
      confirmedByUserId: owner.id,
      confirmationReason: "Paid, webhook lost",
    });
    const mails = await mailsOf(orderId);
    expect(mails).toEqual([
      expect.objectContaining({ to: customer.email, subject: expect.stringMatching(/is ready$/) }),
    ]);
    const [entry] = (await auditOf(orderId)).filter((row) => row.action === "order.payment.confirm");
    expect(entry.changes).toMatchObject({
      before: { payment: "sandbox pending", status: "pending" },
      after: { payment: "sandbox paid", status: "completed", reason: "Paid, webhook lost", reference },
    });

    const webhook = await sandboxWebhook(payment)();
    expect(webhook).toMatchObject({ status: 200, body: { payload: { outcome: "duplicate" } } });
    expect(await deliveredOn(orderId)).toHaveLength(2);
    expect(await mailsOf(orderId)).toHaveLength(1);
    const page = (await get(`/orders/${orderId}`)).body.payload;
    expect(page.payments[0]).toMatchObject({ confirmedBy: owner.email, confirmable: false });
    expect(page.payments[0].events).toHaveLength(1);

    const twice = await confirm({ paymentId: payment.id, reference, reason: "Paid, webhook lost" });
    expect(twice).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.alreadyPaid } });
  });

  it("follows the late-payment rules for an expired order: what stock is left is delivered, the rest credited", async () => {
    const shop = await listing({ stock: 2 });
    const late = await placeOrder([[shop, 2]]);
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    await sellOneOf(shop);
    const confirmed = await post(`/orders/${late.orderId}/confirm-payment`, {
      paymentId: late.payment.id,
      reference: late.payment.providerReference,
      reason: "Paid after it expired",
    });
    expect(confirmed).toMatchObject({ status: 200, body: { payload: { status: "partiallyComplete" } } });
    expect(await deliveredOn(late.orderId)).toHaveLength(1);
    expect(await balanceOf(late.customer.id)).toBe(500);
  });
});

// ---------------------------------------------------------------- refund to the balance

describe("refunding to the balance", () => {
  it("refunds a line at what was paid for it, withdraws its credentials from the customer, and never twice", async () => {
    const code = `HALF${newId().slice(0, 6)}`;
    await client.db.insert(coupons).values({ code, kind: "percent", amount: 10 });
    const [first, second] = [await listing({ stock: 2 }), await listing({ stock: 2 })];
    const { orderId, customer } = await paidOrder(
      [
        [first, 1],
        [second, 2],
      ],
      { coupon: code },
    );
    const page = (await get(`/orders/${orderId}`)).body.payload;
    expect(page.price).toBe(13.5);
    const lineOf = (shop: Listing) => page.lines.find((line: { title: string }) => line.title === shop.title);
    expect([lineOf(first).refundable, lineOf(second).refundable]).toEqual([4.5, 9]);

    expect((await post(`/orders/${orderId}/refund`, {})).status).toBe(400);
    const refunded = await post(`/orders/${orderId}/refund`, { lineIds: [lineOf(second)._id] });
    expect(refunded).toMatchObject({ status: 200, body: { payload: { refunded: 9 } } });
    expect(await balanceOf(customer.id)).toBe(900);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.orderId, orderId));
    expect(ledger).toEqual([
      expect.objectContaining({ type: "refund", amountCents: 900, staffUserId: owner.id, userId: customer.id }),
    ]);
    type Shown = { title: string; creds: string[]; refunded: boolean };
    const shown = (products: Shown[], shop: Listing) => products.find((line) => line.title === shop.title);
    const view = (await client.get(`/v1/order/read/${orderId}`)).body.payload;
    expect(shown(view.products, first)).toMatchObject({ creds: [expect.any(String)], refunded: false });
    expect(shown(view.products, second)).toMatchObject({ creds: [], refunded: true });
    const list = (await client.post("/v1/order/read", { page: 1 }, { token: customer.token })).body.payload;
    expect(shown(list.records[0].products, second)).toMatchObject({ creds: [], refunded: true });
    // The stock rows stay delivered: the customer saw them, so they are never sold again.
    const stock = await client.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, second.optionId));
    expect(stock.filter((row) => row.status === "delivered")).toHaveLength(2);

    const again = await post(`/orders/${orderId}/refund`, { lineIds: [lineOf(second)._id] });
    expect(again).toMatchObject({
      status: 409,
      body: { message: ORDER_ACTION_MESSAGES.alreadyRefunded(second.title) },
    });
    const rest = await post(`/orders/${orderId}/refund`, { wholeOrder: true });
    expect(rest).toMatchObject({ status: 200, body: { payload: { refunded: 4.5 } } });
    expect(await balanceOf(customer.id)).toBe(1350);
    const all = await post(`/orders/${orderId}/refund`, { wholeOrder: true });
    expect(all).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.allRefunded } });
    const entries = (await auditOf(orderId)).filter((row) => row.action === "order.refund");
    expect(entries.map((entry) => entry.changes)).toEqual([
      { before: { refunded: "$0.00", refundedLines: [] }, after: { refunded: "$9.00", refundedLines: [second.title] } },
      {
        before: { refunded: "$9.00", refundedLines: [second.title] },
        after: { refunded: "$13.50", refundedLines: [second.title, first.title] },
      },
    ]);
  });

  it("closes the line's replacements: its pending requests and any new one are refused", async () => {
    const shop = await listing({ stock: 1 });
    const { orderId, customer } = await paidOrder([[shop, 1]]);
    const line = (await get(`/orders/${orderId}`)).body.payload.lines[0];
    const [delivered] = await client.db
      .select()
      .from(deliveredCredentials)
      .where(eq(deliveredCredentials.orderProductId, line._id));
    await client.db.insert(requests).values({
      kind: "replacement",
      userId: customer.id,
      orderId,
      orderProductId: line._id,
      credentialIndex: 0,
      deliveredCredentialId: delivered.id,
      message: "It stopped working",
    });
    expect((await post(`/orders/${orderId}/refund`, { wholeOrder: true })).status).toBe(200);
    const [closed] = await client.db.select().from(requests).where(eq(requests.orderId, orderId));
    expect(closed).toMatchObject({ status: "rejected", resolvedBy: owner.id });

    const replacement = await client.post(
      "/v1/request/createReplacement",
      {
        orderId,
        productId: shop.productId,
        productOptionId: shop.optionId,
        index: 0,
        message: "The password is refused since this morning",
        "g-recaptcha-response": issueChallenge(client.config, new Date(Date.now() - 5_000)).token,
      },
      { token: customer.token },
    );
    expect(replacement).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.refunded } });
  });

  it("refunds a late-paid order only what the late payment did not already credit", async () => {
    const shop = await listing({ stock: 2 });
    const late = await placeOrder([[shop, 2]]);
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    await sellOneOf(shop);
    await submitSandboxPayment(client.deps, late.payment.id, "paid");
    expect(await balanceOf(late.customer.id)).toBe(500);
    const line = (await get(`/orders/${late.orderId}`)).body.payload.lines[0];
    expect(line.refundable).toBe(5);
    const refunded = await post(`/orders/${late.orderId}/refund`, { wholeOrder: true });
    expect(refunded.body.payload.refunded).toBe(5);
    expect(await balanceOf(late.customer.id)).toBe(1000);
  });

  it("refuses an unpaid order, a free order and an order without an account", async () => {
    const shop = await listing({ stock: 3 });
    const pending = await placeOrder([[await listing({ stock: 1 }), 1]]);
    expect(await post(`/orders/${pending.orderId}/refund`, { wholeOrder: true })).toMatchObject({
      status: 409,
      body: { message: ADMIN_ORDER_REFUSALS.refundNotPaid },
    });
    const code = `FREE${newId().slice(0, 6)}`;
    await client.db.insert(coupons).values({ code, kind: "percent", amount: 100 });
    const free = await placeOrder([[shop, 1]], { coupon: code });
    expect((await get(`/orders/${free.orderId}`)).body.payload.can).toMatchObject({
      refund: false,
      refundReason: ADMIN_ORDER_REFUSALS.refundFree,
    });
    expect(await post(`/orders/${free.orderId}/refund`, { wholeOrder: true })).toMatchObject({
      status: 409,
      body: { message: ADMIN_ORDER_REFUSALS.refundFree },
    });
    const orphan = await insertOrder({ email: "no-account@example.com" });
    expect(await post(`/orders/${orphan}/refund`, { wholeOrder: true })).toMatchObject({
      status: 409,
      body: { message: ADMIN_ORDER_REFUSALS.refundNoAccount },
    });
  });

  it("shares an order's price over its lines to the cent", () => {
    const line = (id: string, priceCents: number) => ({
      id,
      priceCents,
      unitPriceCents: priceCents,
      quantity: 1,
      fulfilMode: "auto" as const,
      isReplacement: false,
      refundedAt: null,
      deliveredRows: 1,
    });
    const order = { status: "completed", subtotalCents: 300, priceCents: 200 };
    const lines = [line("a", 100), line("b", 100), line("c", 100)];
    const shares = paidShares(order, lines);
    expect([...shares.values()].reduce((sum, cents) => sum + cents, 0)).toBe(200);
    expect([...refundableByLine(order, lines, 150).values()].reduce((sum, cents) => sum + cents, 0)).toBe(50);
  });
});

// ---------------------------------------------------------------- resend and cancel

describe("resending the order mail and cancelling", () => {
  it("resends a paid order's mail once the previous one went out, linked to the order", async () => {
    const shop = await listing({ stock: 1 });
    const { orderId, customer } = await paidOrder([[shop, 1]]);
    const waiting = await post(`/orders/${orderId}/resend-mail`);
    expect(waiting).toMatchObject({ status: 409, body: { message: ORDER_ACTION_MESSAGES.mailWaiting } });
    await client.db.update(mailOutbox).set({ status: "sent" }).where(eq(mailOutbox.orderId, orderId));
    expect((await get(`/orders/${orderId}`)).body.payload.can.resendMail).toBe(true);
    expect((await post(`/orders/${orderId}/resend-mail`)).status).toBe(200);
    const mails = await mailsOf(orderId);
    expect(mails).toHaveLength(2);
    expect(mails[1]).toMatchObject({
      to: customer.email,
      status: "pending",
      subject: expect.stringMatching(/is ready$/),
    });
    expect((await post(`/orders/${orderId}/resend-mail`)).status).toBe(409);
    expect((await auditOf(orderId)).filter((row) => row.action === "order.mail.resend")).toHaveLength(1);

    const pending = await placeOrder([[await listing({ stock: 1 }), 1]]);
    expect(await post(`/orders/${pending.orderId}/resend-mail`)).toMatchObject({
      status: 409,
      body: { message: ORDER_ACTION_MESSAGES.resendNotPaid("pending") },
    });
  });

  it("links a request's mail to its order", async () => {
    const shop = await listing({ stock: 1 });
    const { orderId, customer } = await placeOrder([[shop, 1]], { method: "balance" });
    const request = await createOtherRequest(
      { db: client.db, config: client.config },
      {
        orderId,
        productId: shop.productId,
        productOptionId: shop.optionId,
        userId: customer.id,
        message: "Which region?",
      },
    );
    await rejectRequest(
      { db: client.db, config: client.config },
      { requestId: request._id, staffUserId: owner.id, reason: "No" },
    );
    expect((await mailsOf(orderId)).map((mail) => mail.subject)).toContain(
      `We answered your request about ${shop.title}`,
    );
  });

  it("cancels an unpaid order and releases its stock, once", async () => {
    const shop = await listing({ stock: 2 });
    const { orderId, payment } = await placeOrder([[shop, 2]]);
    const available = async () =>
      (
        await client.db
          .select()
          .from(stockCredentials)
          .where(and(eq(stockCredentials.optionId, shop.optionId), eq(stockCredentials.status, "available")))
      ).length;
    expect(await available()).toBe(0);
    const cancelled = await post(`/orders/${orderId}/cancel`);
    expect(cancelled).toMatchObject({ status: 200, body: { message: ORDER_ACTION_MESSAGES.cancelled } });
    expect(await available()).toBe(2);
    const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored.status).toBe("failed");
    expect((await auditOf(orderId)).find((row) => row.action === "order.cancel")?.changes).toEqual({
      before: { status: "pending" },
      after: { status: "cancelled" },
    });
    const again = await post(`/orders/${orderId}/cancel`);
    expect(again).toMatchObject({
      status: 409,
      body: { message: ORDER_ACTION_MESSAGES.cancelNotPending("cancelled") },
    });
  });
});

// ---------------------------------------------------------------- staff's own orders (ADR 035)

describe("a staff member's own orders", () => {
  it("refuses every action on them (403) for managers and owners alike, changes nothing, and lets another staff member act", async () => {
    for (const role of ["manager", "owner"] as const) {
      const buyer = await createCustomer(client.db, { role, balanceCents: 10_000 });
      const own = await placeOrder([[await listing({ fulfilMode: "manual" }), 1]], {
        method: "balance",
        customer: buyer,
      });
      await client.db.update(mailOutbox).set({ status: "sent" }).where(eq(mailOutbox.orderId, own.orderId));
      const lineId = (await get(`/orders/${own.orderId}`, buyer.token)).body.payload.lines[0]._id;
      const unpaid = await placeOrder([[await listing({ stock: 1 }), 1]], { customer: buyer });
      const attempts: [string, string, object][] = [
        [own.orderId, "deliver", { lineId, credentials: "mine:pw" }],
        [own.orderId, "refund", { wholeOrder: true }],
        [own.orderId, "resend-mail", {}],
        [
          unpaid.orderId,
          "confirm-payment",
          { paymentId: unpaid.payment.id, reference: "own-ref", reason: "Paid, trust me" },
        ],
        [unpaid.orderId, "cancel", {}],
      ];
      for (const [orderId, action, body] of attempts) {
        const refused = await post(`/orders/${orderId}/${action}`, body, buyer.token);
        expect(refused, `${role} ${action}`).toMatchObject({
          status: 403,
          body: { message: ORDER_ACTION_MESSAGES.ownOrder },
        });
      }
      expect(await deliveredOn(own.orderId)).toHaveLength(0);
      expect(await balanceOf(buyer.id)).toBe(10_000 - 500);
      expect(await mailsOf(own.orderId)).toHaveLength(1);
      const [stillUnpaid] = await client.db.select().from(orders).where(eq(orders.id, unpaid.orderId));
      expect(stillUnpaid.status).toBe("pending");
      expect(await auditOf(own.orderId)).toEqual([]);
      expect(await auditOf(unpaid.orderId)).toEqual([]);

      // Another manager or owner handles it, and the audit log names them.
      expect((await post(`/orders/${own.orderId}/refund`, { wholeOrder: true }, manager.token)).status).toBe(200);
      expect(await balanceOf(buyer.id)).toBe(10_000);
      expect((await post(`/orders/${unpaid.orderId}/cancel`, {}, owner.token)).status).toBe(200);
      expect((await auditOf(unpaid.orderId)).map((entry) => entry.actorUserId)).toEqual([owner.id]);
    }
  });
});

// ---------------------------------------------------------------- races (PostgreSQL)

describe("ending a credential's warranty", () => {
  it("ends it now for owners and managers, audited; replacements are refused from then on, and never twice", async () => {
    const shop = await listing({ stock: 3 });
    const { orderId, customer } = await paidOrder([[shop, 1]]);
    const end = (body: Record<string, unknown>, token = manager.token) =>
      post(`/orders/${orderId}/warranty/end`, body, token);
    const credential = { productOptionId: shop.optionId, index: 0 };

    expect((await client.post(`/v1/admin/orders/${orderId}/warranty/end`, credential)).status).toBe(401);
    expect((await end(credential, support.token)).status).toBe(403);
    expect((await end(credential, customer.token)).status).toBe(403);
    expect(await end({ ...credential, index: 9 })).toMatchObject({
      status: 404,
      body: { message: ORDER_ACTION_MESSAGES.credentialNotInOrder },
    });
    expect(await auditOf(orderId)).toEqual([]);

    const ended = await end(credential);
    expect(ended).toMatchObject({ status: 200, body: { message: ORDER_ACTION_MESSAGES.warrantyEnded } });
    expect(await end(credential)).toMatchObject({
      status: 409,
      body: { message: ORDER_ACTION_MESSAGES.warrantyAlreadyEnded },
    });
    const [entry] = await auditOf(orderId);
    expect(entry).toMatchObject({ action: "order.warranty.end", actorUserId: manager.id, objectLabel: customer.email });
    expect(JSON.stringify(entry.changes)).toContain(`${shop.title}, credential 1: ended `);

    const refused = await client.post(
      "/v1/request/createReplacement",
      {
        orderId,
        productId: shop.productId,
        productOptionId: shop.optionId,
        index: 0,
        message: "The password is refused since this morning",
        "g-recaptcha-response": issueChallenge(client.config, new Date(Date.now() - 5_000)).token!,
      },
      { token: customer.token },
    );
    expect(refused.status).toBe(409);
    expect(refused.body.message).toMatch(/^The warranty of this credential ended on /);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("order actions under concurrency (PostgreSQL)", () => {
  it("a confirmation by hand racing a real signed webhook delivers once, and a replayed webhook changes nothing", async () => {
    for (let round = 0; round < 5; round++) {
      const shop = await listing({ stock: 2 });
      const { orderId, payment } = await placeOrder([[shop, 2]]);
      const webhook = sandboxWebhook(payment);
      const [confirmed, delivered] = await Promise.all([
        post(`/orders/${orderId}/confirm-payment`, {
          paymentId: payment.id,
          reference: payment.providerReference,
          reason: "Paid at the provider",
        }),
        webhook(),
      ]);
      expect(delivered.status).toBe(200);
      const outcomes = [confirmed.status === 200, delivered.body.payload.outcome === "applied"];
      expect(outcomes.filter(Boolean), `round ${round}`).toHaveLength(1);
      if (confirmed.status !== 200) expect(confirmed.status).toBe(409);
      expect(await deliveredOn(orderId)).toHaveLength(2);
      expect(await mailsOf(orderId)).toHaveLength(1);

      expect((await webhook()).body.payload.outcome).toBe("duplicate");
      expect((await sandboxWebhook(payment)()).body.payload.outcome).toBe("duplicate");
      expect(await deliveredOn(orderId)).toHaveLength(2);
      expect(await mailsOf(orderId)).toHaveLength(1);
      const [stored] = await client.db.select().from(orders).where(eq(orders.id, orderId));
      expect(stored.status).toBe("completed");
    }
  });

  it("two confirmations at once settle the payment once", async () => {
    const shop = await listing({ stock: 2 });
    const { orderId, payment } = await placeOrder([[shop, 1]]);
    const body = { paymentId: payment.id, reference: payment.providerReference, reason: "Paid at the provider" };
    const answers = await Promise.all([
      post(`/orders/${orderId}/confirm-payment`, body),
      post(`/orders/${orderId}/confirm-payment`, body, manager.token),
    ]);
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
    expect(await deliveredOn(orderId)).toHaveLength(1);
    expect(await mailsOf(orderId)).toHaveLength(1);
  });

  it("a double-clicked delivery delivers once", async () => {
    const manual = await listing({ fulfilMode: "manual" });
    const { orderId } = await placeOrder([[manual, 1]], { method: "balance" });
    const lineId = (await get(`/orders/${orderId}`)).body.payload.lines[0]._id;
    const answers = await Promise.all(
      ["one:pw1", "two:pw2", "three:pw3"].map((credentials) =>
        post(`/orders/${orderId}/deliver`, { lineId, credentials }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await deliveredOn(orderId)).toHaveLength(1);
    expect((await mailsOf(orderId)).filter((mail) => mail.subject.endsWith("is delivered"))).toHaveLength(1);
  });

  it("refunds racing on one order credit each line once and never more than was paid", async () => {
    const [first, second] = [await listing({ stock: 1 }), await listing({ stock: 1 })];
    const { orderId, customer } = await paidOrder([
      [first, 1],
      [second, 1],
    ]);
    const lines = (await get(`/orders/${orderId}`)).body.payload.lines;
    const answers = await Promise.all([
      ...Array.from({ length: 4 }, () => post(`/orders/${orderId}/refund`, { lineIds: [lines[0]._id] })),
      post(`/orders/${orderId}/refund`, { wholeOrder: true }, manager.token),
      post(`/orders/${orderId}/refund`, { lineIds: [lines[1]._id] }, manager.token),
    ]);
    expect(answers.every((answer) => answer.status === 200 || answer.status === 409)).toBe(true);
    expect(await balanceOf(customer.id)).toBe(1000);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.orderId, orderId));
    expect(ledger.map((entry) => entry.amountCents)).toEqual([500, 500]);
  });

  it("a double-clicked resend sends one mail, and a double-clicked cancel cancels once", async () => {
    const shop = await listing({ stock: 2 });
    const paid = await paidOrder([[shop, 1]]);
    await client.db.update(mailOutbox).set({ status: "sent" }).where(eq(mailOutbox.orderId, paid.orderId));
    const resent = await Promise.all(Array.from({ length: 3 }, () => post(`/orders/${paid.orderId}/resend-mail`)));
    expect(resent.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    expect(await mailsOf(paid.orderId)).toHaveLength(2);

    const pending = await placeOrder([[await listing({ stock: 1 }), 1]]);
    const cancelled = await Promise.all(Array.from({ length: 3 }, () => post(`/orders/${pending.orderId}/cancel`)));
    expect(cancelled.map((answer) => answer.status).sort()).toEqual([200, 409, 409]);
    const entries = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, pending.orderId), inArray(auditLog.action, ["order.cancel"])));
    expect(entries).toHaveLength(1);
  });
});
