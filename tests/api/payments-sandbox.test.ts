import { createHmac } from "node:crypto";
import { describe, expect, it } from "vitest";
import { createSandboxGateway, SANDBOX_SIGNATURE_HEADER, signSandboxEvent } from "../../api/payments/sandbox";
import { WebhookRejected, type CheckoutRequest } from "../../api/payments/types";

const config = { sessionSecrets: ["sandbox-test-session-secret-".padEnd(40, "s")], publicUrl: "http://localhost:7400" };
const gateway = createSandboxGateway(config);
const now = new Date("2026-11-22T01:00:00Z");

const checkout: CheckoutRequest = {
  paymentId: "pay_DDDDDDDDDDDDDDDDDDDDDD",
  amountCents: 499,
  currency: "USD",
  description: "Cloud storage, 1 month",
  customerEmail: "buyer@example.com",
  successUrl: "http://localhost:7400/find-order?id=order4",
  cancelUrl: "http://localhost:7400/cart",
};

const event = { paymentId: checkout.paymentId, amountCents: 499, currency: "USD", outcome: "paid" } as const;

async function rejection(promise: Promise<unknown>): Promise<WebhookRejected> {
  const error = await promise.then(
    () => undefined,
    (caught: unknown) => caught,
  );
  expect(error).toBeInstanceOf(WebhookRejected);
  return error as WebhookRejected;
}

/** A sandbox webhook built by hand, to check the scheme itself rather than the helper. */
function handSigned(body: string, timestamp: number, secret: string) {
  const key = createHmac("sha256", secret).update("sandbox-webhook").digest("hex");
  const signature = createHmac("sha256", key).update(`${timestamp}.${body}`).digest("hex");
  return new Headers({ [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${signature}` });
}

describe("sandbox gateway", () => {
  it("sends the customer to the store's own sandbox payment page", async () => {
    await expect(gateway.createCheckout(checkout)).resolves.toEqual({
      providerReference: `sandbox_${checkout.paymentId}`,
      checkoutUrl: `http://localhost:7400/pay/sandbox/${checkout.paymentId}`,
    });
  });

  it("verifies what signSandboxEvent signs, for each outcome, with a fresh event id each time", async () => {
    const paid = signSandboxEvent(event, config, now);
    const first = await gateway.parseWebhook(paid.body, new Headers(paid.headers), now);
    expect(first).toEqual({
      eventId: expect.stringMatching(/^evt_sandbox_/),
      type: "paid",
      providerReference: `sandbox_${checkout.paymentId}`,
      paymentId: checkout.paymentId,
      amountCents: 499,
      currency: "USD",
      providerEventType: "paid",
    });
    const second = signSandboxEvent(event, config, now);
    expect((await gateway.parseWebhook(second.body, new Headers(second.headers), now)).eventId).not.toBe(first.eventId);
    for (const outcome of ["failed", "expired"] as const) {
      const signed = signSandboxEvent({ ...event, outcome }, config, now);
      expect(await gateway.parseWebhook(signed.body, new Headers(signed.headers), now)).toMatchObject({
        type: outcome,
      });
    }
  });

  it("signs with a key derived from the session secret, timestamp included, like Stripe's scheme", async () => {
    const body = JSON.parse(signSandboxEvent(event, config, now).body);
    const timestamp = Math.floor(now.getTime() / 1000);
    const raw = JSON.stringify(body);
    expect(await gateway.parseWebhook(raw, handSigned(raw, timestamp, config.sessionSecrets[0]), now)).toMatchObject({
      type: "paid",
    });
    // The session secret itself, used directly, is not the webhook key.
    const direct = createHmac("sha256", config.sessionSecrets[0]).update(`${timestamp}.${raw}`).digest("hex");
    const headers = new Headers({ [SANDBOX_SIGNATURE_HEADER]: `t=${timestamp},v1=${direct}` });
    expect((await rejection(gateway.parseWebhook(raw, headers, now))).reason).toBe("signature");
  });

  it("keeps verifying events signed with an older session secret during a rotation", async () => {
    const older = "an-older-session-secret-still-accepted-xx";
    const signedByOld = signSandboxEvent(event, { sessionSecrets: [older] }, now);
    const rotated = createSandboxGateway({ ...config, sessionSecrets: [config.sessionSecrets[0], older] });
    expect(await rotated.parseWebhook(signedByOld.body, new Headers(signedByOld.headers), now)).toMatchObject({
      type: "paid",
    });
    expect(
      (await rejection(gateway.parseWebhook(signedByOld.body, new Headers(signedByOld.headers), now))).reason,
    ).toBe("signature");
  });

  it("accepts an event signed up to 300 s before or after now and rejects anything further either way as stale", async () => {
    for (const offsetMs of [-300_000, 300_000]) {
      const inside = signSandboxEvent(event, config, new Date(now.getTime() + offsetMs));
      expect(await gateway.parseWebhook(inside.body, new Headers(inside.headers), now)).toMatchObject({ type: "paid" });
    }
    for (const offsetMs of [-301_000, 301_000, 3_600_000]) {
      const outside = signSandboxEvent(event, config, new Date(now.getTime() + offsetMs));
      const rejected = await rejection(gateway.parseWebhook(outside.body, new Headers(outside.headers), now));
      expect(rejected.reason, String(offsetMs)).toBe("stale");
    }
  });

  it("rejects a forged signature, a tampered body, a moved timestamp and a missing or garbled header", async () => {
    const genuine = signSandboxEvent(event, config, now);
    const forged = signSandboxEvent(event, { sessionSecrets: ["an-attacker-chosen-secret-of-40-characters"] }, now);
    expect((await rejection(gateway.parseWebhook(forged.body, new Headers(forged.headers), now))).reason).toBe(
      "signature",
    );

    const tampered = genuine.body.replace('"amountCents":499', '"amountCents":1');
    expect(tampered).not.toBe(genuine.body);
    expect((await rejection(gateway.parseWebhook(tampered, new Headers(genuine.headers), now))).reason).toBe(
      "signature",
    );

    // Re-dating a captured event to dodge the tolerance breaks its signature.
    const header = genuine.headers[SANDBOX_SIGNATURE_HEADER].replace(
      /^t=\d+/,
      `t=${Math.floor(now.getTime() / 1000) + 60}`,
    );
    const redated = new Headers({ [SANDBOX_SIGNATURE_HEADER]: header });
    expect((await rejection(gateway.parseWebhook(genuine.body, redated, now))).reason).toBe("signature");

    expect((await rejection(gateway.parseWebhook(genuine.body, new Headers(), now))).reason).toBe("signature");
    const garbled = new Headers({ [SANDBOX_SIGNATURE_HEADER]: "v1=abc" });
    expect((await rejection(gateway.parseWebhook(genuine.body, garbled, now))).reason).toBe("signature");
  });

  it("rejects correctly signed bodies that are not JSON or not a complete event", async () => {
    const timestamp = Math.floor(now.getTime() / 1000);
    const secret = config.sessionSecrets[0];
    expect((await rejection(gateway.parseWebhook("{", handSigned("{", timestamp, secret), now))).reason).toBe(
      "malformed",
    );
    const incomplete = JSON.stringify({ id: "evt_x", type: "paid", paymentId: "p" });
    expect(
      (await rejection(gateway.parseWebhook(incomplete, handSigned(incomplete, timestamp, secret), now))).reason,
    ).toBe("malformed");
    const fractional = JSON.stringify({ ...JSON.parse(signSandboxEvent(event, config, now).body), amountCents: 4.99 });
    expect(
      (await rejection(gateway.parseWebhook(fractional, handSigned(fractional, timestamp, secret), now))).reason,
    ).toBe("malformed");
  });
});
