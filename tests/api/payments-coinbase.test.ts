import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { COINBASE_EVENT_MAX_AGE_MS, createCoinbaseGateway } from "../../api/payments/coinbase";
import {
  GatewayUnavailable,
  WebhookRejected,
  type CheckoutRequest,
  type PaymentGateway,
} from "../../api/payments/types";
import { coinbaseWebhook, startFakeGateways, type FakeGateways } from "../support/fake-gateways";

let fake: FakeGateways;
let gateway: PaymentGateway;

beforeAll(async () => {
  fake = await startFakeGateways();
  gateway = createCoinbaseGateway(fake.credentials.coinbase);
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const checkout: CheckoutRequest = {
  paymentId: "pay_BBBBBBBBBBBBBBBBBBBBBB",
  amountCents: 1205,
  currency: "USD",
  description: "VPN Premium, 12 months",
  customerEmail: "buyer@example.com",
  successUrl: "http://localhost:7400/find-order?id=order2",
  cancelUrl: "http://localhost:7400/cart",
};

describe("Coinbase Commerce createCheckout", () => {
  it("creates a fixed-price charge with the key, the API version, a decimal USD amount and the payment id", async () => {
    const result = await gateway.createCheckout(checkout);

    const [request] = fake.requestsTo("coinbase");
    expect(request.headers["x-cc-api-key"]).toBe(fake.credentials.coinbase.apiKey);
    expect(request.headers["x-cc-version"]).toBe("2018-03-22");
    expect(request.headers["content-type"]).toBe("application/json");
    expect(JSON.parse(request.body)).toEqual({
      name: checkout.description,
      description: checkout.description,
      pricing_type: "fixed_price",
      local_price: { amount: "12.05", currency: "USD" },
      metadata: { paymentId: checkout.paymentId, customer_email: checkout.customerEmail },
      redirect_url: checkout.successUrl,
      cancel_url: checkout.cancelUrl,
    });
    expect(result.providerReference).toMatch(/^[0-9a-f-]{36}$/);
    expect(result.checkoutUrl).toMatch(/^https:\/\/commerce\.coinbase\.test\/charges\/[0-9A-F]{8}$/);
  });

  it("clips a long description to Coinbase's limits", async () => {
    await gateway.createCheckout({ ...checkout, description: "x".repeat(300) });
    const body = JSON.parse(fake.requestsTo("coinbase")[0].body);
    expect(body.name).toHaveLength(100);
    expect(body.description).toHaveLength(200);
  });

  it("turns a refusal, a server error or an unusable answer into GatewayUnavailable", async () => {
    const wrongKey = createCoinbaseGateway({ ...fake.credentials.coinbase, apiKey: "wrong-coinbase-key" });
    await expect(wrongKey.createCheckout(checkout)).rejects.toBeInstanceOf(GatewayUnavailable);
    fake.answerNextWith("coinbase", 503, "upstream down");
    await expect(gateway.createCheckout(checkout)).rejects.toThrow(/coinbase answered 503/);
    fake.answerNextWith("coinbase", 201, { data: { id: "x" } });
    await expect(gateway.createCheckout(checkout)).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

const now = new Date("2026-11-22T01:00:00Z");

function chargeEvent(type: string, overrides: { amount?: unknown; created_at?: string; id?: string } = {}) {
  return {
    id: overrides.id ?? "f765421f-d193-4ef3-9e9f-0e4e2c3b4a51",
    resource: "event",
    type,
    api_version: "2018-03-22",
    created_at: overrides.created_at ?? "2026-11-22T00:59:30Z",
    data: {
      id: "2a3b2d62-7a4c-4d35-b4bd-4f7c0e4f9b61",
      code: "66BEOV2A",
      pricing: {
        local: { amount: "amount" in overrides ? overrides.amount : "12.05", currency: "USD" },
        bitcoin: { amount: "0.00012345", currency: "BTC" },
      },
      metadata: { paymentId: checkout.paymentId, customer_email: "buyer@example.com" },
    },
  };
}

async function rejection(promise: Promise<unknown>): Promise<WebhookRejected> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookRejected);
  return error as WebhookRejected;
}

describe("Coinbase Commerce webhooks", () => {
  it("maps charge:confirmed to paid with the exact local amount, the charge id and the event id", async () => {
    const { body, headers } = coinbaseWebhook(chargeEvent("charge:confirmed"));
    await expect(gateway.parseWebhook(body, headers, now)).resolves.toEqual({
      eventId: "f765421f-d193-4ef3-9e9f-0e4e2c3b4a51",
      type: "paid",
      providerReference: "2a3b2d62-7a4c-4d35-b4bd-4f7c0e4f9b61",
      paymentId: checkout.paymentId,
      amountCents: 1205,
      currency: "USD",
      providerEventType: "charge:confirmed",
    });
  });

  it("maps charge:resolved to paid, charge:failed to failed, and ignores pending and delayed charges", async () => {
    const parse = (type: string) => {
      const { body, headers } = coinbaseWebhook(chargeEvent(type));
      return gateway.parseWebhook(body, headers, now);
    };
    expect(await parse("charge:resolved")).toMatchObject({ type: "paid" });
    expect(await parse("charge:failed")).toMatchObject({ type: "failed", amountCents: 1205 });
    expect(await parse("charge:pending")).toMatchObject({ type: "ignored", providerEventType: "charge:pending" });
    expect(await parse("charge:delayed")).toMatchObject({ type: "ignored" });
    expect(await parse("charge:created")).toMatchObject({ type: "ignored" });
  });

  it("reads decimal amounts exactly and rejects amounts that are not whole cents", async () => {
    const parseAmount = (amount: unknown) => {
      const { body, headers } = coinbaseWebhook(chargeEvent("charge:confirmed", { amount }));
      return gateway.parseWebhook(body, headers, now);
    };
    expect(await parseAmount("0.29")).toMatchObject({ amountCents: 29 });
    expect(await parseAmount("19.9")).toMatchObject({ amountCents: 1990 });
    expect(await parseAmount("100")).toMatchObject({ amountCents: 10000 });
    for (const bad of ["12.505", "-1.00", "1e3", "", " 12.50", "12,50", null]) {
      expect((await rejection(parseAmount(bad))).reason, String(bad)).toBe("malformed");
    }
  });

  it("rejects events older than the three-day retry window or from the future", async () => {
    const old = new Date(now.getTime() - COINBASE_EVENT_MAX_AGE_MS - 1000).toISOString();
    const stale = coinbaseWebhook(chargeEvent("charge:confirmed", { created_at: old }));
    expect((await rejection(gateway.parseWebhook(stale.body, stale.headers, now))).reason).toBe("stale");
    const future = coinbaseWebhook(chargeEvent("charge:confirmed", { created_at: "2026-11-22T01:30:00Z" }));
    expect((await rejection(gateway.parseWebhook(future.body, future.headers, now))).reason).toBe("stale");
    const retried = coinbaseWebhook(chargeEvent("charge:confirmed", { created_at: "2026-11-20T01:00:00Z" }));
    expect(await gateway.parseWebhook(retried.body, retried.headers, now)).toMatchObject({ type: "paid" });
    // The same five minutes of clock skew as every other gateway.
    const skewed = coinbaseWebhook(chargeEvent("charge:confirmed", { created_at: "2026-11-22T01:05:00Z" }));
    expect(await gateway.parseWebhook(skewed.body, skewed.headers, now)).toMatchObject({ type: "paid" });
    const ahead = coinbaseWebhook(chargeEvent("charge:confirmed", { created_at: "2026-11-22T01:05:01Z" }));
    expect((await rejection(gateway.parseWebhook(ahead.body, ahead.headers, now))).reason).toBe("stale");
  });

  it("rejects a forged signature, a tampered body and a missing header", async () => {
    const forged = coinbaseWebhook(chargeEvent("charge:confirmed"), "attacker-secret");
    expect((await rejection(gateway.parseWebhook(forged.body, forged.headers, now))).reason).toBe("signature");

    const genuine = coinbaseWebhook(chargeEvent("charge:confirmed"));
    const tampered = genuine.body.replace('"amount":"12.05"', '"amount":"0.05"');
    expect(tampered).not.toBe(genuine.body);
    expect((await rejection(gateway.parseWebhook(tampered, genuine.headers, now))).reason).toBe("signature");

    expect((await rejection(gateway.parseWebhook(genuine.body, new Headers(), now))).reason).toBe("signature");
    const notHex = new Headers({ "x-cc-webhook-signature": "zz".repeat(32) });
    expect((await rejection(gateway.parseWebhook(genuine.body, notHex, now))).reason).toBe("signature");
  });

  it("rejects correctly signed bodies that are not JSON or carry no event", async () => {
    const sign = (body: string) =>
      new Headers({
        "x-cc-webhook-signature": createHmac("sha256", fake.credentials.coinbase.webhookSecret)
          .update(body)
          .digest("hex"),
      });
    expect((await rejection(gateway.parseWebhook("{oops", sign("{oops"), now))).reason).toBe("malformed");
    expect((await rejection(gateway.parseWebhook("{}", sign("{}"), now))).reason).toBe("malformed");
    const noCharge = JSON.stringify({ event: { id: "e1", type: "charge:confirmed", data: {} } });
    expect((await rejection(gateway.parseWebhook(noCharge, sign(noCharge), now))).reason).toBe("malformed");
  });
});
