import { randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  balanceLedger,
  deliveredCredentials,
  orderProducts,
  payments,
  users,
  webhookEvents,
} from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { signSandboxEvent } from "../../api/payments/sandbox";
import { createTopUp } from "../../api/services/payments/checkout";
import { coinbaseWebhook, type FakeGateways, startFakeGateways } from "../support/fake-gateways";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

let fake: FakeGateways;
let client: ShopTestApi;

beforeAll(async () => {
  fake = await startFakeGateways();
  client = await createShopTestApi({
    COINBASE_API_KEY: fake.credentials.coinbase.apiKey,
    COINBASE_WEBHOOK_SECRET: fake.credentials.coinbase.webhookSecret,
    COINBASE_API_BASE: fake.credentials.coinbase.apiBase,
  });
});
afterAll(async () => {
  await client.close();
  await fake.close();
});

/** A pending order of one unit at $5.00 paid through `method`, and its payment row. */
async function pendingOrder(method: "sandbox" | "coinbase") {
  const listing = await createListing(client.db, { priceCents: 500, stock: 3 });
  const customer = await createCustomer(client.db);
  await addToCart(client, customer.token, listing.optionId, 1);
  const created = await client.post("/v1/order/create", { paymentMethod: method }, { token: customer.token });
  expect(created.status).toBe(201);
  const orderId: string = created.body.payload.orderId;
  const [payment] = await client.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, payment, customer };
}

async function orderStatus(orderId: string) {
  return (await client.get(`/v1/order/read/${orderId}`)).body.payload.status as string;
}

async function deliveredCount(orderId: string) {
  const rows = await client.db
    .select({ id: deliveredCredentials.id })
    .from(deliveredCredentials)
    .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
    .where(eq(orderProducts.orderId, orderId));
  return rows.length;
}

/** A signed Coinbase charge:confirmed delivery for $5.00, echoing our payment id as Coinbase does. */
function coinbasePaid(chargeId: string, paymentId: string) {
  const eventId = randomUUID();
  const delivery = coinbaseWebhook({
    id: eventId,
    type: "charge:confirmed",
    created_at: new Date().toISOString(),
    data: { id: chargeId, pricing: { local: { amount: "5.00", currency: "USD" } }, metadata: { paymentId } },
  });
  return { ...delivery, eventId };
}

function postSandbox(body: string, headers: Record<string, string>) {
  return client.post("/v1/webhooks/sandbox", body, { headers });
}

function sandboxEvent(
  paymentId: string,
  amountCents: number,
  options: { currency?: string; outcome?: "paid" | "failed"; now?: Date } = {},
) {
  return signSandboxEvent(
    { paymentId, amountCents, currency: options.currency ?? "USD", outcome: options.outcome ?? "paid" },
    client.config,
    options.now,
  );
}

describe("POST /v1/webhooks/{gateway}", () => {
  it("applies a genuine payment once, and answers duplicates and later failures without changing anything", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    const event = sandboxEvent(payment.id, 500);
    const first = await postSandbox(event.body, event.headers);
    expect(first.status).toBe(200);
    expect(first.body.payload).toEqual({ outcome: "applied" });
    expect(await orderStatus(orderId)).toBe("completed");

    const again = await postSandbox(event.body, event.headers);
    expect(again.status).toBe(200);
    expect(again.body.payload).toEqual({ outcome: "duplicate" });
    const cancelLater = sandboxEvent(payment.id, 500, { outcome: "failed" });
    expect((await postSandbox(cancelLater.body, cancelLater.headers)).body.payload).toEqual({ outcome: "ignored" });
    expect(await orderStatus(orderId)).toBe("completed");
    expect(await deliveredCount(orderId)).toBe(1);
  });

  it("rejects forged, tampered and stale events and changes nothing", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    const forged = signSandboxEvent(
      { paymentId: payment.id, amountCents: 500, currency: "USD", outcome: "paid" },
      { sessionSecrets: ["an-attacker-guessing-the-secret-xxxxxxxx"] },
    );
    const forgedAnswer = await postSandbox(forged.body, forged.headers);
    expect(forgedAnswer.status).toBe(400);
    expect(forgedAnswer.body).toEqual({ success: false, message: "Webhook rejected: signature" });

    const genuine = sandboxEvent(payment.id, 500);
    const tampered = genuine.body.replace('"type":"paid"', '"type":"paid" ');
    expect((await postSandbox(tampered, genuine.headers)).status).toBe(400);

    const stale = sandboxEvent(payment.id, 500, { now: new Date(Date.now() - 301_000) });
    const staleAnswer = await postSandbox(stale.body, stale.headers);
    expect(staleAnswer.status).toBe(400);
    expect(staleAnswer.body.message).toBe("Webhook rejected: stale");
    const future = sandboxEvent(payment.id, 500, { now: new Date(Date.now() + 3_600_000) });
    const futureAnswer = await postSandbox(future.body, future.headers);
    expect(futureAnswer.status).toBe(400);
    expect(futureAnswer.body.message).toBe("Webhook rejected: stale");

    const unsigned = await postSandbox(genuine.body, { "content-type": "application/json" });
    expect(unsigned.status).toBe(400);

    expect(await orderStatus(orderId)).toBe("pending");
    expect(await deliveredCount(orderId)).toBe(0);
    expect(await client.db.select().from(webhookEvents).where(eq(webhookEvents.paymentId, payment.id))).toEqual([]);
  });

  it("ignores a correctly signed event with the wrong amount or currency", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    for (const event of [sandboxEvent(payment.id, 1), sandboxEvent(payment.id, 500, { currency: "EUR" })]) {
      const answer = await postSandbox(event.body, event.headers);
      expect(answer.status).toBe(200);
      expect(answer.body.payload).toEqual({ outcome: "ignored" });
    }
    expect(await orderStatus(orderId)).toBe("pending");
    const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored.status).toBe("pending");
  });

  it("never lets one gateway's event settle another gateway's payment", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    const { body, headers } = coinbaseWebhook({
      id: randomUUID(),
      type: "charge:confirmed",
      created_at: new Date().toISOString(),
      data: {
        id: payment.providerReference,
        pricing: { local: { amount: "5.00", currency: "USD" } },
        metadata: { paymentId: payment.id },
      },
    });
    const answer = await client.post("/v1/webhooks/coinbase", body, { headers: Object.fromEntries(headers) });
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({ outcome: "ignored" });
    expect(await orderStatus(orderId)).toBe("pending");
  });

  it("applies a paid event that arrives before the checkout stored the provider's reference", async () => {
    for (const method of ["sandbox", "coinbase"] as const) {
      const { orderId, payment } = await pendingOrder(method);
      // The crash window: the payment row is committed, the provider knows our id, the reference is not stored.
      await client.db.update(payments).set({ providerReference: null }).where(eq(payments.id, payment.id));
      const { body, headers } =
        method === "sandbox" ? sandboxEvent(payment.id, 500) : coinbasePaid(payment.providerReference!, payment.id);
      const answer = await client.post(`/v1/webhooks/${method}`, body, {
        headers: Object.fromEntries(new Headers(headers)),
      });
      expect(answer.status, method).toBe(200);
      expect(answer.body.payload, method).toEqual({ outcome: "applied" });
      expect(await orderStatus(orderId)).toBe("completed");
      expect(await deliveredCount(orderId)).toBe(1);
      const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
      expect(stored).toMatchObject({ status: "paid", providerReference: payment.providerReference });
    }
  });

  it("answers 503 for a payment it cannot find, keeps nothing, and applies the redelivery once the payment exists", async () => {
    const customer = await createCustomer(client.db);
    const paymentId = newId();
    const delivery = coinbasePaid("charge-not-stored-yet", paymentId);
    const deliver = () =>
      client.post("/v1/webhooks/coinbase", delivery.body, { headers: Object.fromEntries(delivery.headers) });

    const early = await deliver();
    expect(early.status).toBe(503);
    expect(early.body.success).toBe(false);
    expect(await client.db.select().from(webhookEvents).where(eq(webhookEvents.eventId, delivery.eventId))).toEqual([]);

    await client.db
      .insert(payments)
      .values({ id: paymentId, purpose: "topup", userId: customer.id, gateway: "coinbase", amountCents: 500 });
    const retried = await deliver();
    expect(retried.status).toBe(200);
    expect(retried.body.payload).toEqual({ outcome: "applied" });
    const [user] = await client.db
      .select({ balanceCents: users.balanceCents })
      .from(users)
      .where(eq(users.id, customer.id));
    expect(user.balanceCents).toBe(500);
  });

  it("ignores an event whose reference differs from the one stored for our payment", async () => {
    const { orderId, payment } = await pendingOrder("coinbase");
    const { body, headers } = coinbasePaid("another-charge", payment.id);
    const answer = await client.post("/v1/webhooks/coinbase", body, { headers: Object.fromEntries(headers) });
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({ outcome: "ignored" });
    expect(await orderStatus(orderId)).toBe("pending");
    const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored).toMatchObject({ status: "pending", providerReference: payment.providerReference });
  });

  it("ignores an event naming another gateway's payment, even one whose reference is not stored yet", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    await client.db.update(payments).set({ providerReference: null }).where(eq(payments.id, payment.id));
    const { body, headers } = coinbasePaid("a-coinbase-charge", payment.id);
    const answer = await client.post("/v1/webhooks/coinbase", body, { headers: Object.fromEntries(headers) });
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({ outcome: "ignored" });
    expect(await orderStatus(orderId)).toBe("pending");
    const [stored] = await client.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored).toMatchObject({ status: "pending", providerReference: null });
  });

  it("answers 404 for a gateway that is not enabled here", async () => {
    const answer = await client.post("/v1/webhooks/stripe", "{}", { headers: { "content-type": "application/json" } });
    expect(answer.status).toBe(404);
    expect((await client.post("/v1/webhooks/nonsense", "{}")).status).toBe(404);
  });

  it("settles a Coinbase charge by its reference and exact decimal amount", async () => {
    const { orderId, payment } = await pendingOrder("coinbase");
    const charge = (amount: string) =>
      coinbaseWebhook({
        id: randomUUID(),
        type: "charge:confirmed",
        created_at: new Date().toISOString(),
        data: {
          id: payment.providerReference,
          pricing: { local: { amount, currency: "USD" } },
          metadata: { paymentId: payment.id },
        },
      });
    const short = charge("4.99");
    expect(
      (await client.post("/v1/webhooks/coinbase", short.body, { headers: Object.fromEntries(short.headers) })).body
        .payload,
    ).toEqual({
      outcome: "ignored",
    });
    expect(await orderStatus(orderId)).toBe("pending");
    const exact = charge("5.00");
    expect(
      (await client.post("/v1/webhooks/coinbase", exact.body, { headers: Object.fromEntries(exact.headers) })).body
        .payload,
    ).toEqual({
      outcome: "applied",
    });
    expect(await orderStatus(orderId)).toBe("completed");
  });

  it("credits a paid top-up to the balance with an 'in' ledger row, once", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 100 });
    const topUp = await createTopUp(client.deps, { userId: customer.id, amountCents: 2500, paymentMethod: "sandbox" });
    expect(topUp.paymentUrl).toBe(`${client.config.publicUrl}/pay/sandbox/${topUp.paymentId}`);
    const event = sandboxEvent(topUp.paymentId, 2500);
    await postSandbox(event.body, event.headers);
    await postSandbox(event.body, event.headers);
    const [user] = await client.db
      .select({ balanceCents: users.balanceCents })
      .from(users)
      .where(eq(users.id, customer.id));
    expect(user.balanceCents).toBe(2600);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, customer.id));
    expect(ledger).toMatchObject([
      { type: "in", amountCents: 2500, balanceAfterCents: 2600, paymentId: topUp.paymentId },
    ]);
  });
});

describe("/v1/sandbox/payments (the sandbox page's calls)", () => {
  it("reads the stored amount, and Pay settles through the webhook path", async () => {
    const { orderId, payment } = await pendingOrder("sandbox");
    const read = await client.get(`/v1/sandbox/payments/${payment.id}`);
    expect(read.status).toBe(200);
    expect(read.body.payload).toEqual({
      paymentId: payment.id,
      orderId,
      purpose: "order",
      amount: 5,
      status: "pending",
      // The page lists what is paid for (issue 36): the order's lines and any discount.
      lines: [{ title: expect.any(String), subtitle: expect.any(String), quantity: 1, price: 5 }],
      discount: 0,
    });
    const paid = await client.post(`/v1/sandbox/payments/${payment.id}/pay`, {});
    expect(paid.status).toBe(200);
    expect(paid.body.payload).toEqual({ outcome: "applied", orderId, purpose: "order" });
    expect(await orderStatus(orderId)).toBe("completed");
    const cancelLate = await client.post(`/v1/sandbox/payments/${payment.id}/cancel`, {});
    expect(cancelLate.body.payload.outcome).toBe("ignored");
    expect(await orderStatus(orderId)).toBe("completed");
    expect((await client.get("/v1/sandbox/payments/not-an-id")).status).toBe(404);
  });

  it("stands in for the payment provider only: the old staff stand-ins answer 404 and change nothing", async () => {
    const { orderId, payment, customer } = await pendingOrder("sandbox");
    expect((await client.post(`/v1/sandbox/payments/${payment.id}/pay`, {})).status).toBe(200);
    expect(await orderStatus(orderId)).toBe("completed");
    const [line] = await client.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId));
    const ticket = await client.post(
      "/v1/ticket/create",
      { orderId, subject: "Login", message: "It asks for a code" },
      { token: customer.token },
    );
    const asked = await client.post(
      "/v1/request/createRequest",
      { orderId, productId: line.productId, productOptionId: line.optionId, message: "Which region is it?" },
      { token: customer.token },
    );
    const ticketId: string = ticket.body.payload._id;
    const requestId: string = asked.body.payload._id;

    // Staff work needs a staff token on /v1/admin; with no sign-in these paths are simply not there.
    const staffWork = [
      [`/v1/sandbox/tickets/${ticketId}/reply`, { message: "On it" }],
      [`/v1/sandbox/requests/${requestId}/complete`, {}],
      [`/v1/sandbox/requests/${requestId}/reject`, { reason: "No" }],
      [`/v1/sandbox/requests/${requestId}/answer`, { answer: "EU" }],
      ["/v1/sandbox/requests/warranty/end", { orderId, productOptionId: line.optionId, index: 0 }],
    ] as const;
    for (const [path, body] of staffWork) {
      expect([path, (await client.post(path, body)).status]).toEqual([path, 404]);
    }
    const read = await client.get(`/v1/ticket/read/${ticketId}`, { token: customer.token });
    expect(read.body.payload.messages).toHaveLength(1);
    const requests = await client.post(
      "/v1/request/getRequests",
      { orderId, productId: line.productId, productOptionId: line.optionId },
      { token: customer.token },
    );
    expect(requests.body.payload.map((request: { status: string }) => request.status)).toEqual(["pending"]);
    const [delivered] = await client.db
      .select({ expiresAt: deliveredCredentials.expiresAt })
      .from(deliveredCredentials)
      .where(eq(deliveredCredentials.orderProductId, line.id));
    expect(delivered.expiresAt!.getTime()).toBeGreaterThan(Date.now());
  });

  it("does not exist where the sandbox is off", async () => {
    const production = await createShopTestApi({ NODE_ENV: "production" });
    try {
      const answer = await production.get(`/v1/sandbox/payments/${"A".repeat(22)}`);
      expect(answer.status).toBe(404);
      const gateways = await production.get("/v1/payment_gateway/read");
      expect(gateways.body.payload.map((gateway: { name: string }) => gateway.name)).not.toContain("sandbox");
    } finally {
      await production.close();
    }
  });
});
