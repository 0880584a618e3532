import { createHmac } from "node:crypto";
import { once } from "node:events";
import { type IncomingHttpHeaders, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { and, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import {
  auditLog,
  mailOutbox,
  notificationOutbox,
  payments,
  productOptions,
  stockCredentials,
} from "../../api/db/schema";
import type { Logger } from "../../api/logger";
import { MAX_NOTIFICATION_ATTEMPTS, flushNotifications } from "../../api/notifications/sender";
import { issueChallenge } from "../../api/services/guards/human-check";
import { notifyOperator } from "../../api/services/notifications/operator-notices";
import { RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { receiveWebhook, submitSandboxPayment } from "../../api/services/payments/events";
import { signSandboxEvent } from "../../api/payments/sandbox";
import { recheckStockLevels } from "../../api/services/stock/levels";
import { addStaffReply } from "../../api/services/support/tickets";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * The operator's notifications (issue 17, ADR 030): every event writes the chosen channels in its own
 * transaction, low stock and sold out once per crossing, and the webhook sender posts signed requests to a
 * real HTTP receiver, retries a failing one on an injected clock, and gives up after its attempts. On
 * PGlite and (TEST_DATABASE_URL) PostgreSQL; the races at the end run on PostgreSQL only.
 */

const SECRET = "notification-webhook-secret-for-the-tests-0123456789";
const OPERATOR = "operator@store.test";
/** The receiver's path stands for a token in the URL: it must never reach a log line or the back office. */
const HOOK_PATH = "/hooks/t0k3n-in-the-path";

type Received = { headers: IncomingHttpHeaders; body: string };

/** A local HTTP receiver: records every request, answers the statuses queued in `plan` (then 200), or never. */
async function startReceiver() {
  const received: Received[] = [];
  const plan: number[] = [];
  const state = { hang: false, delayMs: 0 };
  const server: Server = createServer((request, response) => {
    let body = "";
    request.setEncoding("utf8");
    request.on("data", (chunk: string) => (body += chunk));
    request.on("end", () => {
      received.push({ headers: request.headers, body });
      if (state.hang) return;
      const status = plan.shift() ?? 200;
      setTimeout(() => response.writeHead(status).end(), state.delayMs);
    });
  });
  server.listen(0, "127.0.0.1");
  await once(server, "listening");
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}${HOOK_PATH}`,
    received,
    plan,
    state,
    close: () => {
      server.closeAllConnections();
      server.close();
    },
  };
}

/** What a receiver does with the secret: HMAC-SHA256 over `timestamp.body`, compared with the header. */
function signatureIsValid(request: Received): boolean {
  const timestamp = request.headers["x-store-timestamp"];
  const expected = `v1=${createHmac("sha256", SECRET).update(`${timestamp}.${request.body}`).digest("hex")}`;
  return request.headers["x-store-signature"] === expected;
}

const logLines: string[] = [];
const capturingLogger: Logger = {
  debug: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  info: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  warn: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
  error: (message, fields) => logLines.push(JSON.stringify({ message, ...fields })),
};

let receiver: Awaited<ReturnType<typeof startReceiver>>;
let client: ShopTestApi;
beforeAll(async () => {
  receiver = await startReceiver();
  client = await createShopTestApi({
    RATE_LIMIT_SCALE: "100",
    OPERATOR_EMAIL: OPERATOR,
    NOTIFY_WEBHOOK_URL: receiver.url,
    NOTIFY_WEBHOOK_SECRET: SECRET,
  });
});
afterAll(async () => {
  await client.close();
  receiver.close();
});

const flush = (now = new Date(), timeoutMs?: number) =>
  flushNotifications({ db: client.db, config: client.config, logger: capturingLogger, timeoutMs }, now);

type Payload = { id: string; event: string; occurredAt: string; data: Record<string, unknown> };

/** The webhook notifications of `event` whose data has these fields. */
async function webhookRows(event: string, match: Record<string, unknown> = {}) {
  const rows = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.event, event));
  return rows.filter((row) =>
    Object.entries(match).every(([key, value]) => (row.payload as Payload).data[key] === value),
  );
}

async function operatorMails(subject: RegExp) {
  const mails = await client.db.select().from(mailOutbox).where(eq(mailOutbox.to, OPERATOR));
  return mails.filter((mail) => subject.test(mail.subject));
}

async function setThreshold(optionId: string, threshold: number) {
  await client.db.update(productOptions).set({ lowStockThreshold: threshold }).where(eq(productOptions.id, optionId));
}

async function addStock(optionId: string, count: number) {
  await client.db.insert(stockCredentials).values(
    Array.from({ length: count }, (_, index) => ({
      optionId,
      username: `restock${index}-${Math.random().toString(36).slice(2, 8)}`,
      password: `fresh${index}`,
    })),
  );
}

/** A customer buys `quantity` of the option from their balance: paid and delivered at once. */
async function buyWithBalance(optionId: string, quantity: number, priceCents = 500) {
  const customer = await createCustomer(client.db, { balanceCents: priceCents * quantity });
  await addToCart(client, customer.token, optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
  expect(created.status).toBe(201);
  return { orderId: created.body.payload.orderId as string, customer };
}

/** A sandbox order left unpaid: its stock reserved, its payment pending. */
async function orderWithSandbox(optionIds: string[], quantity = 1) {
  const customer = await createCustomer(client.db);
  for (const optionId of optionIds) await addToCart(client, customer.token, optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
  expect(created.status).toBe(201);
  const orderId = created.body.payload.orderId as string;
  const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, paymentId: payment.id, customer };
}

async function owner() {
  return createCustomer(client.db, { role: "owner" });
}

describe("events", () => {
  it("a paid order sends order.paid by mail and webhook, and its manual lines order.manual_delivery", async () => {
    const auto = await createListing(client.db, { title: "Music Premium", optionTitle: "Family", priceCents: 700 });
    const manual = await createListing(client.db, { title: "Game Pass", fulfilMode: "manual", priceCents: 300 });
    const { orderId, paymentId, customer } = await orderWithSandbox([auto.optionId, manual.optionId]);
    expect(await webhookRows("order.paid", { orderId })).toHaveLength(0);

    expect((await submitSandboxPayment(client.deps, paymentId, "paid")).outcome).toBe("applied");
    const [paid] = await webhookRows("order.paid", { orderId });
    expect(paid.idempotencyKey).toBe(`order.paid:${orderId}`);
    const payload = paid.payload as Payload;
    expect(payload).toMatchObject({ id: paid.id, event: "order.paid" });
    expect(new Date(payload.occurredAt).getTime()).toBeGreaterThan(Date.now() - 60_000);
    expect(payload.data).toMatchObject({
      orderId,
      status: "processing",
      paymentMethod: "sandbox",
      total: 10,
      currency: "USD",
    });
    // Lines come in the order's own order, which lines added together do not fix.
    expect(payload.data.lines).toHaveLength(2);
    expect(payload.data.lines).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ product: "Music Premium", option: "Family", quantity: 1, price: 7, delivered: 1 }),
        expect.objectContaining({ product: "Game Pass", quantity: 1, price: 3, delivered: 0, manual: true }),
      ]),
    );
    // What the operator needs, not the customer's address nor the credentials.
    const [credential] = await client.db
      .select()
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, auto.optionId), eq(stockCredentials.status, "delivered")));
    for (const secret of [customer.email, credential.username, credential.password]) {
      expect(JSON.stringify(payload)).not.toContain(secret);
    }

    const [manualNotice] = await webhookRows("order.manual_delivery", { orderId });
    expect((manualNotice.payload as Payload).data).toMatchObject({
      orderId,
      lines: [{ product: "Game Pass", quantity: 1 }],
    });
    const [mail] = await operatorMails(new RegExp(`Order paid: 10\\.00 USD \\(${orderId.slice(0, 8)}\\)`));
    expect(mail.text).toContain(`Order: ${orderId}`);
    expect(mail.text).toContain("1 × Music Premium — Family (1 Month Warranty): 1 of 1 delivered");
    expect(mail.text).not.toContain(customer.email);
    expect(await operatorMails(new RegExp(`Deliver by hand: order ${orderId.slice(0, 8)}`))).toHaveLength(1);
  });

  it("an order paid from the balance is notified once, in its own transaction", async () => {
    const listing = await createListing(client.db, { title: "Cloud Storage", stock: 3 });
    const { orderId } = await buyWithBalance(listing.optionId, 2);
    expect(await webhookRows("order.paid", { orderId, paymentMethod: "balance", total: 10 })).toHaveLength(1);
    expect(await webhookRows("order.manual_delivery", { orderId })).toHaveLength(0);
    // A refused checkout (sold out) notifies nothing.
    const customer = await createCustomer(client.db, { balanceCents: 5000 });
    await addToCart(client, customer.token, listing.optionId, 1);
    await client.db
      .update(stockCredentials)
      .set({ status: "void" })
      .where(and(eq(stockCredentials.optionId, listing.optionId), eq(stockCredentials.status, "available")));
    const refused = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(refused.status).toBe(409);
    expect(await webhookRows("order.paid", { paymentMethod: "balance", total: 5 })).toHaveLength(0);
  });

  it("low stock is notified once per crossing: a sale under the threshold again says nothing, a restock re-arms it", async () => {
    const listing = await createListing(client.db, { title: "VPN", optionTitle: "Yearly", stock: 6 });
    await setThreshold(listing.optionId, 4);
    await buyWithBalance(listing.optionId, 2);
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(0);

    await buyWithBalance(listing.optionId, 1);
    const [first] = await webhookRows("stock.low", { optionId: listing.optionId });
    expect((first.payload as Payload).data).toMatchObject({
      productId: listing.productId,
      product: "VPN",
      option: "Yearly",
      available: 3,
      threshold: 4,
    });
    await buyWithBalance(listing.optionId, 1);
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(1);
    expect(await operatorMails(/^\[Store\] Low stock: VPN — Yearly \(3 left\)$/)).toHaveLength(1);

    // An import brings it back above the threshold; the stock screen rechecks afterwards.
    await addStock(listing.optionId, 5);
    await client.db.transaction((tx) => recheckStockLevels(tx, client.config, [listing.optionId]));
    const [rearmed] = await client.db.select().from(productOptions).where(eq(productOptions.id, listing.optionId));
    expect(rearmed.lowStockNotifiedAt).toBeNull();
    await buyWithBalance(listing.optionId, 3);
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(1);
    await buyWithBalance(listing.optionId, 2);
    const crossings = await webhookRows("stock.low", { optionId: listing.optionId });
    expect(crossings).toHaveLength(2);
    expect(crossings.map((row) => (row.payload as Payload).data.available).sort()).toEqual([2, 3]);
  });

  it("a reservation counts against the stock, and releasing it (expiry) re-arms the low-stock notice", async () => {
    const listing = await createListing(client.db, { title: "Design Suite", stock: 4 });
    await setThreshold(listing.optionId, 3);
    await orderWithSandbox([listing.optionId], 2);
    expect(await webhookRows("stock.low", { optionId: listing.optionId, available: 2 })).toHaveLength(1);

    expect(await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000))).toBeGreaterThan(0);
    const [released] = await client.db.select().from(productOptions).where(eq(productOptions.id, listing.optionId));
    expect(released.lowStockNotifiedAt).toBeNull();

    await orderWithSandbox([listing.optionId], 2);
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(2);
  });

  it("selling out is notified once per sell-out, not as low stock too", async () => {
    const listing = await createListing(client.db, { title: "Photo Editor", optionTitle: "Solo", stock: 3 });
    await setThreshold(listing.optionId, 5);
    await buyWithBalance(listing.optionId, 3);
    expect(await webhookRows("stock.sold_out", { optionId: listing.optionId })).toHaveLength(1);
    // Straight from above the threshold to nothing: the sell-out says it all.
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(0);
    expect(await operatorMails(/^\[Store\] Sold out: Photo Editor — Solo$/)).toHaveLength(1);

    await addStock(listing.optionId, 1);
    await client.db.transaction((tx) => recheckStockLevels(tx, client.config, [listing.optionId]));
    await buyWithBalance(listing.optionId, 1);
    expect(await webhookRows("stock.sold_out", { optionId: listing.optionId })).toHaveLength(2);
    // Restocked to 1, under the threshold all along: the low-stock notice was marked, not sent.
    expect(await webhookRows("stock.low", { optionId: listing.optionId })).toHaveLength(0);
  });

  it("a new ticket and a customer's reply are notified, staff's own reply is not", async () => {
    const customer = await createCustomer(client.db);
    const created = await client.post(
      "/v1/ticket/create",
      { orderId: "", subject: "My private subject", message: "A private message" },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    const ticketId = created.body.payload._id as string;
    const [opened] = await webhookRows("ticket.opened", { ticketId });
    expect((opened.payload as Payload).data).toEqual({ ticketId, orderId: null });
    expect(JSON.stringify(opened.payload)).not.toContain("private");

    await addStaffReply(client.deps, { ticketId, staffUserId: null, message: "We are on it" });
    expect(await webhookRows("ticket.reply", { ticketId })).toHaveLength(0);
    const sent = await client.post(
      "/v1/ticket/sendMessage",
      { ticketId, message: "Still broken" },
      { token: customer.token },
    );
    expect(sent.status).toBe(200);
    const replies = await webhookRows("ticket.reply", { ticketId });
    expect(replies).toHaveLength(1);
    expect(replies[0].idempotencyKey).toMatch(/^ticket\.reply:[\w-]{22}$/);
    expect(
      await operatorMails(new RegExp(`^\\[Store\\] Customer replied: ticket ${ticketId.slice(0, 8)}$`)),
    ).toHaveLength(1);
  });

  it("a replacement request (filled from stock or waiting) and an other request are notified", async () => {
    const listing = await createListing(client.db, { title: "Streaming Plus", stock: 2 });
    const { orderId, customer } = await buyWithBalance(listing.optionId, 1);
    const line = { orderId, productId: listing.productId, productOptionId: listing.optionId };
    const humanCheck = () => issueChallenge(client.config, new Date(Date.now() - 5_000)).token!;
    const replaced = await client.post(
      "/v1/request/createReplacement",
      { ...line, index: 0, message: "Password refused", "g-recaptcha-response": humanCheck() },
      { token: customer.token },
    );
    expect(replaced.status).toBe(201);
    expect(await webhookRows("request.created", { orderId, kind: "replacement", status: "completed" })).toHaveLength(1);
    // That took the last credential: the next replacement waits for staff.
    const waiting = await client.post(
      "/v1/request/createReplacement",
      { ...line, index: 1, message: "Refused again", "g-recaptcha-response": humanCheck() },
      { token: customer.token },
    );
    expect(waiting.status).toBe(201);
    expect(await webhookRows("request.created", { orderId, kind: "replacement", status: "pending" })).toHaveLength(1);

    const other = await client.post(
      "/v1/request/createRequest",
      { ...line, message: "Can I change the profile name?" },
      { token: customer.token },
    );
    expect(other.status).toBe(201);
    const [notice] = await webhookRows("request.created", { orderId, kind: "other" });
    expect((notice.payload as Payload).data).toMatchObject({ product: "Streaming Plus", status: "pending" });
    expect(await operatorMails(/^\[Store\] New request: Streaming Plus$/)).toHaveLength(1);
  });

  it("a payment whose amount does not match is refused and notified once, however often it is delivered", async () => {
    const listing = await createListing(client.db, { title: "Office Suite", priceCents: 1500 });
    const { orderId, paymentId } = await orderWithSandbox([listing.optionId]);
    const forged = signSandboxEvent({ paymentId, amountCents: 150, currency: "USD", outcome: "paid" }, client.config);
    for (let delivery = 0; delivery < 2; delivery++) {
      expect(await receiveWebhook(client.deps, "sandbox", forged.body, new Headers(forged.headers))).toBe("ignored");
    }
    const [anomaly] = await webhookRows("payment.amount_mismatch", { paymentId });
    expect((anomaly.payload as Payload).data).toMatchObject({
      orderId,
      gateway: "sandbox",
      expected: { amount: 15, currency: "USD" },
      received: { amount: 1.5, currency: "USD" },
    });
    expect(await webhookRows("payment.amount_mismatch", { paymentId })).toHaveLength(1);
    expect(await operatorMails(/amount mismatch/)).toHaveLength(1);
    expect(await webhookRows("order.paid", { orderId })).toHaveLength(0);
  });

  it("a payment after the order expired is honoured and notified as late", async () => {
    const listing = await createListing(client.db, { title: "Language Course", priceCents: 900 });
    const { orderId, paymentId } = await orderWithSandbox([listing.optionId]);
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    expect((await submitSandboxPayment(client.deps, paymentId, "paid")).outcome).toBe("applied");
    const [late] = await webhookRows("payment.late", { paymentId });
    expect((late.payload as Payload).data).toMatchObject({
      orderId,
      purpose: "order",
      amount: 9,
      previousStatus: "expired",
    });
    expect(await webhookRows("order.paid", { orderId, status: "completed" })).toHaveLength(1);
    expect(await operatorMails(/^\[Store\] Late payment honoured \(sandbox\): 9\.00 USD$/)).toHaveLength(1);
  });
});

describe("settings", () => {
  it("owners choose which events go where; the choice is audited and applied to the next events", async () => {
    const boss = await owner();
    const initial = await client.get("/v1/admin/notifications", { token: boss.token });
    expect(initial.status).toBe(200);
    expect(initial.body.payload.channels).toEqual({
      mail: { configured: true, address: OPERATOR },
      webhook: { configured: true, origin: new URL(receiver.url).origin },
    });
    expect(JSON.stringify(initial.body.payload)).not.toContain(HOOK_PATH);
    // Everything on by default.
    expect(initial.body.payload.routing).toContainEqual({
      event: "ticket.opened",
      label: "A customer opened a ticket",
      mail: true,
      webhook: true,
    });

    const saved = await client.post(
      "/v1/admin/notifications/routing",
      { mail: ["order.paid"], webhook: [] },
      { token: boss.token, ip: "198.51.100.7" },
    );
    expect(saved.status).toBe(200);
    expect(saved.body.message).toBe("Notification settings saved");
    const [entry] = await client.db.select().from(auditLog).where(eq(auditLog.action, "notifications.routing"));
    expect(entry).toMatchObject({ actorEmail: boss.email, objectId: "notifications.routing", ip: "198.51.100.7" });
    expect(entry.changes).toMatchObject({
      before: { "order.paid": "mail, webhook", "ticket.opened": "mail, webhook" },
      after: { "order.paid": "mail", "ticket.opened": "none" },
    });

    const customer = await createCustomer(client.db);
    const ticket = await client.post(
      "/v1/ticket/create",
      { orderId: "", subject: "Quiet", message: "Hello" },
      { token: customer.token },
    );
    expect(await webhookRows("ticket.opened", { ticketId: ticket.body.payload._id })).toHaveLength(0);
    expect(await operatorMails(new RegExp(`ticket ${ticket.body.payload._id.slice(0, 8)}`))).toHaveLength(0);
    const listing = await createListing(client.db, { priceCents: 1234 });
    const { orderId } = await buyWithBalance(listing.optionId, 1, 1234);
    expect(await webhookRows("order.paid", { orderId })).toHaveLength(0);
    expect(await operatorMails(new RegExp(`Order paid: 12\\.34 USD \\(${orderId.slice(0, 8)}\\)`))).toHaveLength(1);

    // Saving the same again changes nothing and writes no second entry; bad input changes nothing.
    await client.post("/v1/admin/notifications/routing", { mail: ["order.paid"], webhook: [] }, { token: boss.token });
    expect(await client.db.select().from(auditLog).where(eq(auditLog.action, "notifications.routing"))).toHaveLength(1);
    const bad = await client.post(
      "/v1/admin/notifications/routing",
      { mail: ["order.shipped"], webhook: [] },
      { token: boss.token },
    );
    expect(bad.status).toBe(400);
    expect((await client.post("/v1/admin/notifications/routing", {}, { token: boss.token })).status).toBe(400);

    const all = (initial.body.payload.routing as { event: string }[]).map((row) => row.event);
    const restored = await client.post(
      "/v1/admin/notifications/routing",
      { mail: all, webhook: all },
      { token: boss.token },
    );
    expect(restored.body.payload.every((row: { mail: boolean; webhook: boolean }) => row.mail && row.webhook)).toBe(
      true,
    );
  });

  it("a channel that is not configured gets nothing", async () => {
    const mailOnly = await createShopTestApi({ RATE_LIMIT_SCALE: "100", OPERATOR_EMAIL: OPERATOR });
    try {
      const customer = await createCustomer(mailOnly.db);
      const created = await mailOnly.post(
        "/v1/ticket/create",
        { orderId: "", subject: "Hello", message: "Hi" },
        { token: customer.token },
      );
      expect(created.status).toBe(201);
      expect(await mailOnly.db.select().from(notificationOutbox)).toHaveLength(0);
      expect(await mailOnly.db.select().from(mailOutbox).where(eq(mailOutbox.to, OPERATOR))).toHaveLength(1);
      const boss = await createCustomer(mailOnly.db, { role: "owner" });
      const view = await mailOnly.get("/v1/admin/notifications", { token: boss.token });
      expect(view.body.payload.channels.webhook).toEqual({ configured: false, origin: null });
    } finally {
      await mailOnly.close();
    }
  });
});

describe("config", () => {
  const base = { NODE_ENV: "test", DATA_DIR: "/tmp/store-test-data", SESSION_SECRET: "s".repeat(40) };
  const errorFor = (env: Record<string, string>) => {
    try {
      loadConfig({ ...base, ...env } as NodeJS.ProcessEnv);
    } catch (error) {
      expect(error).toBeInstanceOf(ConfigError);
      return (error as ConfigError).message;
    }
    throw new Error("the configuration was accepted");
  };

  it.each([
    [{ NOTIFY_WEBHOOK_URL: "https://hooks.example/notify" }, "NOTIFY_WEBHOOK_SECRET"],
    [
      { NOTIFY_WEBHOOK_URL: "https://hooks.example/notify", NOTIFY_WEBHOOK_SECRET: "too-short-secret" },
      "NOTIFY_WEBHOOK_SECRET",
    ],
    [{ NOTIFY_WEBHOOK_SECRET: SECRET }, "NOTIFY_WEBHOOK_URL"],
    [{ NOTIFY_WEBHOOK_URL: "ftp://hooks.example/notify", NOTIFY_WEBHOOK_SECRET: SECRET }, "NOTIFY_WEBHOOK_URL"],
    [{ OPERATOR_EMAIL: "not an address" }, "OPERATOR_EMAIL"],
  ])("stops the start on %j with one line naming %s", (env, name) => {
    const message = errorFor(env);
    expect(message).toContain(name);
    expect(message).not.toContain("\n");
    expect(message).not.toContain("too-short-secret");
  });

  it("reads the channels; unset means off", () => {
    const config = loadConfig({
      ...base,
      OPERATOR_EMAIL: OPERATOR,
      NOTIFY_WEBHOOK_URL: "https://hooks.example/notify",
      NOTIFY_WEBHOOK_SECRET: SECRET,
    } as NodeJS.ProcessEnv);
    expect(config.notifications).toEqual({
      operatorEmail: OPERATOR,
      webhook: { url: "https://hooks.example/notify", secret: SECRET },
    });
    expect(loadConfig(base as NodeJS.ProcessEnv).notifications).toEqual({
      operatorEmail: undefined,
      webhook: undefined,
    });
  });
});

/** One new webhook notification (a ticket opened through the service), with its row. */
async function oneNotification(label: string) {
  await client.db.transaction((tx) =>
    notifyOperator(tx, client.config, { event: "ticket.opened", key: label, data: { ticketId: label, orderId: null } }),
  );
  const [row] = await webhookRows("ticket.opened", { ticketId: label });
  return row;
}

describe("webhook delivery", () => {
  it("posts signed notifications with the idempotency key; the receiver verifies them with the secret", async () => {
    receiver.received.length = 0;
    const result = await flush();
    expect(result.sent).toBeGreaterThan(5);
    expect(result).toMatchObject({ retrying: 0, failed: 0 });
    expect(receiver.received).toHaveLength(result.sent);
    for (const request of receiver.received) {
      expect(signatureIsValid(request)).toBe(true);
      const body = JSON.parse(request.body) as Payload;
      expect(Object.keys(body).sort()).toEqual(["data", "event", "id", "occurredAt"]);
      expect(request.headers["x-store-event"]).toBe(body.event);
      expect(request.headers["content-type"]).toBe("application/json");
      const [row] = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, body.id));
      expect(request.headers["idempotency-key"]).toBe(row.idempotencyKey);
      expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    }
    // A body changed on the way fails the check.
    const tampered = { ...receiver.received[0], body: receiver.received[0].body.replace("}", ',"x":1}') };
    expect(signatureIsValid(tampered)).toBe(false);
    expect(await flush()).toEqual({ sent: 0, retrying: 0, failed: 0 });
  });

  it("a receiver that fails at first (500 twice) gets the notification later, with the same key and body", async () => {
    await flush();
    const row = await oneNotification("retry-later");
    receiver.received.length = 0;
    receiver.plan.push(500, 500);
    const start = new Date(Date.now() + 1_000);
    expect(await flush(start)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    // Not due again before its backoff (30 s, then 60 s).
    expect(await flush(new Date(start.getTime() + 20_000))).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await flush(new Date(start.getTime() + 31_000))).toEqual({ sent: 0, retrying: 1, failed: 0 });
    const [between] = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, row.id));
    expect(between).toMatchObject({ status: "pending", attempts: 2, lastError: "answered HTTP 500" });
    expect(await flush(new Date(start.getTime() + 31_000 + 59_000))).toEqual({ sent: 0, retrying: 0, failed: 0 });
    expect(await flush(new Date(start.getTime() + 31_000 + 61_000))).toEqual({ sent: 1, retrying: 0, failed: 0 });

    expect(receiver.received).toHaveLength(3);
    expect(new Set(receiver.received.map((request) => request.headers["idempotency-key"]))).toEqual(
      new Set([`ticket.opened:retry-later`]),
    );
    expect(new Set(receiver.received.map((request) => request.body)).size).toBe(1);
    expect(receiver.received.every(signatureIsValid)).toBe(true);
    expect(receiver.received.map((request) => Number(request.headers["x-store-timestamp"]))).toEqual([
      Math.floor(start.getTime() / 1000),
      Math.floor(start.getTime() / 1000) + 31,
      Math.floor(start.getTime() / 1000) + 92,
    ]);
    const [sent] = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, row.id));
    expect(sent).toMatchObject({ status: "sent", attempts: 3, lastError: null });
  });

  it("a receiver that does not answer in time is retried like a failure", async () => {
    const row = await oneNotification("no-answer");
    receiver.state.hang = true;
    try {
      expect(await flush(new Date(Date.now() + 1_000), 300)).toEqual({ sent: 0, retrying: 1, failed: 0 });
    } finally {
      receiver.state.hang = false;
    }
    const [timedOut] = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, row.id));
    expect(timedOut.lastError).toMatch(/^no answer within/);
    expect(await flush(new Date(Date.now() + 60_000))).toMatchObject({ sent: 1 });
  });

  it("gives up after its attempts; the owner sees it failed and retries it now, audited", async () => {
    await flush(new Date(Date.now() + 3 * 60 * 60_000));
    const row = await oneNotification("gives-up");
    receiver.plan.push(...Array.from({ length: MAX_NOTIFICATION_ATTEMPTS }, () => 503));
    let clock = Date.now() + 1_000;
    for (let attempt = 1; attempt <= MAX_NOTIFICATION_ATTEMPTS; attempt++) {
      await flush(new Date(clock));
      clock += 3 * 60 * 60_000;
    }
    const [failed] = await client.db.select().from(notificationOutbox).where(eq(notificationOutbox.id, row.id));
    expect(failed).toMatchObject({
      status: "failed",
      attempts: MAX_NOTIFICATION_ATTEMPTS,
      lastError: "answered HTTP 503",
    });
    expect(await flush(new Date(clock))).toEqual({ sent: 0, retrying: 0, failed: 0 });

    const boss = await owner();
    const view = await client.get("/v1/admin/notifications?status=failed", { token: boss.token });
    expect(view.body.payload.deliveries.records).toContainEqual(
      expect.objectContaining({ _id: row.id, event: "ticket.opened", status: "failed", attempts: 8 }),
    );
    const retried = await client.post(`/v1/admin/notifications/deliveries/${row.id}/retry`, {}, { token: boss.token });
    expect(retried.status).toBe(200);
    const [entry] = await client.db.select().from(auditLog).where(eq(auditLog.action, "notifications.retry"));
    expect(entry).toMatchObject({
      objectId: row.id,
      changes: { before: { status: "failed" }, after: { status: "pending" } },
    });
    expect(await flush(new Date(clock))).toEqual({ sent: 1, retrying: 0, failed: 0 });

    const again = await client.post(`/v1/admin/notifications/deliveries/${row.id}/retry`, {}, { token: boss.token });
    expect(again.status).toBe(409);
    const unknown = await client.post(
      "/v1/admin/notifications/deliveries/AAAAAAAAAAAAAAAAAAAAAA/retry",
      {},
      { token: boss.token },
    );
    expect(unknown.status).toBe(404);
  });

  it("never logs the secret or the receiver's URL", () => {
    expect(logLines.some((line) => line.includes("notification not sent"))).toBe(true);
    for (const line of logLines) {
      expect(line).not.toContain(SECRET);
      expect(line).not.toContain(HOOK_PATH);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("under concurrency (PostgreSQL)", () => {
  it("two senders flushing at once post each notification once", async () => {
    await flush(new Date(Date.now() + 24 * 60 * 60_000));
    for (let index = 0; index < 30; index++) await oneNotification(`race-${index}`);
    receiver.received.length = 0;
    receiver.state.delayMs = 10;
    try {
      const [one, two] = await Promise.all([flush(), flush()]);
      expect(one.sent + two.sent).toBe(30);
      expect(one.sent).toBeGreaterThan(0);
      expect(two.sent).toBeGreaterThan(0);
    } finally {
      receiver.state.delayMs = 0;
    }
    const keys = receiver.received.map((request) => request.headers["idempotency-key"]);
    expect(keys).toHaveLength(30);
    expect(new Set(keys).size).toBe(30);
  });

  it("checkouts that cross the low-stock threshold or sell out together are notified once", async () => {
    // Pairs of buyers take the last units of an option at the same moment: each, counting alone, would
    // see the other's unit still free and tell nobody.
    const lowStock = await Promise.all(
      Array.from({ length: 6 }, async () => {
        const listing = await createListing(client.db, { title: "Race Low", stock: 3 });
        await setThreshold(listing.optionId, 2);
        return listing;
      }),
    );
    const soldOut = await Promise.all(
      Array.from({ length: 6 }, () => createListing(client.db, { title: "Race Out", stock: 2 })),
    );
    const buyers = await Promise.all(
      [...lowStock, ...soldOut].flatMap((listing) =>
        [1, 2].map(async () => {
          const customer = await createCustomer(client.db, { balanceCents: 500 });
          await addToCart(client, customer.token, listing.optionId, 1);
          return customer;
        }),
      ),
    );
    const answers = await Promise.all(
      buyers.map((buyer) => client.post("/v1/order/create", { paymentMethod: "balance" }, { token: buyer.token })),
    );
    expect(answers.every((answer) => answer.status === 201)).toBe(true);
    for (const listing of lowStock) {
      expect(await webhookRows("stock.low", { optionId: listing.optionId, available: 1 })).toHaveLength(1);
    }
    for (const listing of soldOut) {
      expect(await webhookRows("stock.sold_out", { optionId: listing.optionId })).toHaveLength(1);
    }
  });
});
