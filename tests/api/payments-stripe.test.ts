import Stripe from "stripe";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createStripeGateway } from "../../api/payments/stripe";
import {
  GatewayUnavailable,
  WebhookRejected,
  type CheckoutRequest,
  type PaymentGateway,
} from "../../api/payments/types";
import { startFakeGateways, type FakeGateways } from "../support/fake-gateways";

let fake: FakeGateways;
let gateway: PaymentGateway;
/** Only for its webhook signing helper; it never makes a request. */
const signer = new Stripe("sk_test_signer_only");

beforeAll(async () => {
  fake = await startFakeGateways();
  gateway = createStripeGateway(fake.credentials.stripe);
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const checkout: CheckoutRequest = {
  paymentId: "pay_AAAAAAAAAAAAAAAAAAAAAA",
  amountCents: 1250,
  currency: "USD",
  description: "Streaming Premium, 1 month",
  customerEmail: "buyer@example.com",
  successUrl: "http://localhost:7400/find-order?id=order1",
  cancelUrl: "http://localhost:7400/cart",
  metadata: { orderId: "order1" },
};

describe("Stripe createCheckout", () => {
  it("opens a Checkout Session in USD cents with the payment id, through the SDK, and answers its URL", async () => {
    const result = await gateway.createCheckout(checkout);

    const [request] = fake.requestsTo("stripe");
    expect(request.headers.authorization).toBe(`Bearer ${fake.credentials.stripe.apiKey}`);
    expect(request.headers["idempotency-key"]).toBe(`checkout-session-${checkout.paymentId}`);
    const form = new URLSearchParams(request.body);
    expect(form.get("mode")).toBe("payment");
    expect(form.get("line_items[0][price_data][unit_amount]")).toBe("1250");
    expect(form.get("line_items[0][price_data][currency]")).toBe("usd");
    expect(form.get("line_items[0][price_data][product_data][name]")).toBe(checkout.description);
    expect(form.get("line_items[0][quantity]")).toBe("1");
    expect(form.get("client_reference_id")).toBe(checkout.paymentId);
    expect(form.get("metadata[paymentId]")).toBe(checkout.paymentId);
    expect(form.get("metadata[orderId]")).toBe("order1");
    expect(form.get("customer_email")).toBe("buyer@example.com");
    expect(form.get("success_url")).toBe(checkout.successUrl);
    expect(form.get("cancel_url")).toBe(checkout.cancelUrl);

    expect(result.providerReference).toMatch(/^cs_test_/);
    expect(result.checkoutUrl).toBe(`https://checkout.stripe.test/c/pay/${result.providerReference}`);
  });

  it("turns a refusal by Stripe into GatewayUnavailable", async () => {
    const wrongKey = createStripeGateway({ ...fake.credentials.stripe, apiKey: "sk_test_wrong_key" });
    await expect(wrongKey.createCheckout(checkout)).rejects.toBeInstanceOf(GatewayUnavailable);
  });

  it("refuses a request that is not a positive whole number of cents before calling Stripe", async () => {
    await expect(gateway.createCheckout({ ...checkout, amountCents: 12.5 })).rejects.toThrow(/amountCents/);
    await expect(gateway.createCheckout({ ...checkout, amountCents: 0 })).rejects.toThrow(/amountCents/);
    expect(fake.requestsTo("stripe")).toHaveLength(0);
  });
});

const now = new Date("2026-11-22T01:00:00Z");
const nowSeconds = Math.floor(now.getTime() / 1000);

function sessionEvent(type: string, session: Record<string, unknown> = {}) {
  return JSON.stringify({
    id: "evt_1TestEvent",
    object: "event",
    type,
    created: nowSeconds,
    data: {
      object: {
        id: "cs_test_reference",
        object: "checkout.session",
        amount_total: 1250,
        currency: "usd",
        payment_status: "paid",
        client_reference_id: checkout.paymentId,
        metadata: { paymentId: checkout.paymentId },
        ...session,
      },
    },
  });
}

function signed(body: string, options: { timestamp?: number; secret?: string } = {}) {
  const header = signer.webhooks.generateTestHeaderString({
    payload: body,
    secret: options.secret ?? fake.credentials.stripe.webhookSecret,
    timestamp: options.timestamp ?? nowSeconds,
  });
  return new Headers({ "stripe-signature": header, "content-type": "application/json" });
}

async function rejection(promise: Promise<unknown>): Promise<WebhookRejected> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookRejected);
  return error as WebhookRejected;
}

describe("Stripe webhooks", () => {
  it("maps a paid checkout.session.completed to a paid event with amount, reference and event id", async () => {
    const body = sessionEvent("checkout.session.completed");
    await expect(gateway.parseWebhook(body, signed(body), now)).resolves.toEqual({
      eventId: "evt_1TestEvent",
      type: "paid",
      providerReference: "cs_test_reference",
      paymentId: checkout.paymentId,
      amountCents: 1250,
      currency: "USD",
      providerEventType: "checkout.session.completed",
    });
  });

  it("maps expiry, asynchronous failure and asynchronous success", async () => {
    const expired = sessionEvent("checkout.session.expired", { payment_status: "unpaid" });
    expect(await gateway.parseWebhook(expired, signed(expired), now)).toMatchObject({
      type: "expired",
      amountCents: 1250,
    });
    const failed = sessionEvent("checkout.session.async_payment_failed", { payment_status: "unpaid" });
    expect(await gateway.parseWebhook(failed, signed(failed), now)).toMatchObject({ type: "failed" });
    const succeeded = sessionEvent("checkout.session.async_payment_succeeded");
    expect(await gateway.parseWebhook(succeeded, signed(succeeded), now)).toMatchObject({ type: "paid" });
  });

  it("ignores a completed session that is not paid yet, and events it does not act on", async () => {
    const pending = sessionEvent("checkout.session.completed", { payment_status: "unpaid" });
    expect(await gateway.parseWebhook(pending, signed(pending), now)).toEqual({
      eventId: "evt_1TestEvent",
      type: "ignored",
      providerEventType: "checkout.session.completed",
    });
    const other = JSON.stringify({ id: "evt_2", object: "event", type: "customer.created", data: { object: {} } });
    expect(await gateway.parseWebhook(other, signed(other), now)).toMatchObject({ type: "ignored", eventId: "evt_2" });
  });

  it("accepts an event signed up to 300 s before or after now and rejects anything further either way as stale", async () => {
    const body = sessionEvent("checkout.session.completed");
    for (const offset of [-300, 300]) {
      expect(await gateway.parseWebhook(body, signed(body, { timestamp: nowSeconds + offset }), now)).toMatchObject({
        type: "paid",
      });
    }
    for (const offset of [-301, 301, 3600]) {
      const rejected = await rejection(
        gateway.parseWebhook(body, signed(body, { timestamp: nowSeconds + offset }), now),
      );
      expect(rejected.reason, String(offset)).toBe("stale");
    }
  });

  it("rejects a forged signature, a tampered body and a missing header", async () => {
    const body = sessionEvent("checkout.session.completed");
    const forged = await rejection(gateway.parseWebhook(body, signed(body, { secret: "whsec_attacker" }), now));
    expect(forged.reason).toBe("signature");

    const tampered = body.replace('"amount_total":1250', '"amount_total":1');
    expect(tampered).not.toBe(body);
    expect((await rejection(gateway.parseWebhook(tampered, signed(body), now))).reason).toBe("signature");

    expect((await rejection(gateway.parseWebhook(body, new Headers(), now))).reason).toBe("signature");
    const garbage = new Headers({ "stripe-signature": "not-a-signature" });
    expect((await rejection(gateway.parseWebhook(body, garbage, now))).reason).toBe("signature");
  });

  it("rejects a correctly signed body that is not an event, or a session without an amount", async () => {
    for (const notAnEvent of ["{not json", "null", "[]", '{"id":"evt_3"}']) {
      expect((await rejection(gateway.parseWebhook(notAnEvent, signed(notAnEvent), now))).reason).toBe("malformed");
    }
    const noAmount = sessionEvent("checkout.session.completed", { amount_total: null });
    expect((await rejection(gateway.parseWebhook(noAmount, signed(noAmount), now))).reason).toBe("malformed");
  });
});
