import { createHmac } from "node:crypto";
import { afterAll, afterEach, beforeAll, describe, expect, it } from "vitest";
import { createShoppyGateway } from "../../api/payments/shoppy";
import {
  GatewayUnavailable,
  WebhookRejected,
  type CheckoutRequest,
  type PaymentGateway,
} from "../../api/payments/types";
import { shoppyWebhook, startFakeGateways, type FakeGateways } from "../support/fake-gateways";

let fake: FakeGateways;
let gateway: PaymentGateway;
const publicUrl = "https://store.example";

beforeAll(async () => {
  fake = await startFakeGateways();
  gateway = createShoppyGateway(fake.credentials.shoppy, { publicUrl });
});
afterEach(() => fake.reset());
afterAll(() => fake.close());

const checkout: CheckoutRequest = {
  paymentId: "pay_CCCCCCCCCCCCCCCCCCCCCC",
  amountCents: 1250,
  currency: "USD",
  description: "Music Premium, 3 months",
  customerEmail: "buyer@example.com",
  successUrl: "https://store.example/find-order?id=order3",
  cancelUrl: "https://store.example/cart",
  metadata: { orderId: "order3" },
};

describe("Shoppy createCheckout", () => {
  it("creates a payment with the API key, a decimal value, the webhook URL and the payment id", async () => {
    const result = await gateway.createCheckout(checkout);

    const [request] = fake.requestsTo("shoppy");
    expect(request.headers.authorization).toBe(fake.credentials.shoppy.apiKey);
    expect(request.body).toContain('"value":12.5,');
    expect(JSON.parse(request.body)).toEqual({
      title: checkout.description,
      value: 12.5,
      currency: "USD",
      quantity: 1,
      email: checkout.customerEmail,
      white_label: false,
      webhook_urls: ["https://store.example/v1/webhooks/shoppy"],
      return_url: checkout.successUrl,
      custom_fields: [
        { name: "orderId", value: "order3" },
        { name: "paymentId", value: checkout.paymentId },
      ],
    });
    expect(result.checkoutUrl).toBe(`https://shoppy.test/pay/${result.providerReference}`);
  });

  it("sends amounts that floating point would spoil as their exact decimal", async () => {
    await gateway.createCheckout({ ...checkout, amountCents: 29 });
    await gateway.createCheckout({ ...checkout, amountCents: 100_001 });
    const [small, large] = fake.requestsTo("shoppy").map((request) => request.body);
    expect(small).toContain('"value":0.29,');
    expect(large).toContain('"value":1000.01,');
  });

  it("turns a refusal or an answer without a URL into GatewayUnavailable", async () => {
    const wrongKey = createShoppyGateway({ ...fake.credentials.shoppy, apiKey: "wrong-shoppy-key" }, { publicUrl });
    await expect(wrongKey.createCheckout(checkout)).rejects.toBeInstanceOf(GatewayUnavailable);
    fake.answerNextWith("shoppy", 200, { status: false, message: "Invalid value" });
    await expect(gateway.createCheckout(checkout)).rejects.toBeInstanceOf(GatewayUnavailable);
  });
});

const now = new Date("2026-11-22T01:00:00Z");

function orderEvent(event: string, order: Record<string, unknown> = {}) {
  return {
    event,
    data: {
      order: {
        id: "5b1d2f0e-aaaa-4bbb-8ccc-123456789abc",
        price: "12.50",
        currency: "USD",
        email: "buyer@example.com",
        custom_fields: [{ name: "paymentId", value: checkout.paymentId }],
        ...order,
      },
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

describe("Shoppy webhooks", () => {
  it("maps order:paid to paid with the exact price, the order id as reference and a stable event id", async () => {
    const { body, headers } = shoppyWebhook(orderEvent("order:paid"));
    const expected = {
      eventId: "order:paid:5b1d2f0e-aaaa-4bbb-8ccc-123456789abc",
      type: "paid",
      providerReference: "5b1d2f0e-aaaa-4bbb-8ccc-123456789abc",
      paymentId: checkout.paymentId,
      amountCents: 1250,
      currency: "USD",
      providerEventType: "order:paid",
    };
    await expect(gateway.parseWebhook(body, headers, now)).resolves.toEqual(expected);
    // A redelivery names the same event, so the caller's idempotency record catches it.
    const again = shoppyWebhook(orderEvent("order:paid"));
    await expect(gateway.parseWebhook(again.body, again.headers, now)).resolves.toEqual(expected);
  });

  it("reads a price sent as a JSON number exactly, and custom fields sent as an object", async () => {
    const { body, headers } = shoppyWebhook(
      orderEvent("order:paid", { price: 0.29, custom_fields: { paymentId: "p1" } }),
    );
    expect(await gateway.parseWebhook(body, headers, now)).toMatchObject({ amountCents: 29, paymentId: "p1" });
  });

  it("ignores other events, with or without an order", async () => {
    const created = shoppyWebhook(orderEvent("order:created"));
    expect(await gateway.parseWebhook(created.body, created.headers, now)).toMatchObject({
      type: "ignored",
      eventId: "order:created:5b1d2f0e-aaaa-4bbb-8ccc-123456789abc",
    });
    const feedback = shoppyWebhook({ event: "feedback:received", data: { feedback: { id: "f1" } } });
    expect(await gateway.parseWebhook(feedback.body, feedback.headers, now)).toMatchObject({
      type: "ignored",
      eventId: expect.stringMatching(/^feedback:received:[0-9a-f]{64}$/),
    });
  });

  it("rejects a forged signature, a tampered body, a SHA-256 signature and a missing header", async () => {
    const forged = shoppyWebhook(orderEvent("order:paid"), "attacker-secret");
    expect((await rejection(gateway.parseWebhook(forged.body, forged.headers, now))).reason).toBe("signature");

    const genuine = shoppyWebhook(orderEvent("order:paid"));
    const tampered = genuine.body.replace('"price":"12.50"', '"price":"1.00"');
    expect(tampered).not.toBe(genuine.body);
    expect((await rejection(gateway.parseWebhook(tampered, genuine.headers, now))).reason).toBe("signature");

    const sha256 = new Headers({
      "x-shoppy-signature": createHmac("sha256", fake.credentials.shoppy.webhookSecret)
        .update(genuine.body)
        .digest("hex"),
    });
    expect((await rejection(gateway.parseWebhook(genuine.body, sha256, now))).reason).toBe("signature");
    expect((await rejection(gateway.parseWebhook(genuine.body, new Headers(), now))).reason).toBe("signature");
  });

  it("rejects correctly signed bodies that are not JSON, name no order, or carry an inexact price", async () => {
    const sign = (body: string) =>
      new Headers({
        "x-shoppy-signature": createHmac("sha512", fake.credentials.shoppy.webhookSecret).update(body).digest("hex"),
      });
    expect((await rejection(gateway.parseWebhook("nope", sign("nope"), now))).reason).toBe("malformed");
    const noOrder = JSON.stringify({ event: "order:paid", data: {} });
    expect((await rejection(gateway.parseWebhook(noOrder, sign(noOrder), now))).reason).toBe("malformed");
    for (const price of ["12.505", "12.50 USD", "-12.50", 1e21]) {
      const body = JSON.stringify(orderEvent("order:paid", { price }));
      expect((await rejection(gateway.parseWebhook(body, sign(body), now))).reason, String(price)).toBe("malformed");
    }
  });
});
