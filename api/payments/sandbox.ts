import { createHmac, randomBytes } from "node:crypto";
import { z } from "zod";
import type { Config } from "../config";
import { assertValidCheckoutRequest } from "./checkout-request";
import { assertSignedRecently, hexSignatureMatches, hmacHex, parseSignedJson, requiredHeader } from "./signatures";
import { WebhookRejected, type Checkout, type CheckoutRequest, type PaymentGateway, type VerifiedEvent } from "./types";

/*
 * The sandbox is a gateway without a provider, for development and demos: its "hosted page" is our own
 * /pay/sandbox/{paymentId}, whose Pay and Cancel buttons sign an event with signSandboxEvent and post it
 * to POST /v1/webhooks/sandbox, the same path and checks a real provider's webhook goes through.
 * Its webhooks are signed like Stripe's: "t=<unix seconds>,v1=<hex HMAC-SHA256 of `${t}.${body}`>".
 */

export const SANDBOX_SIGNATURE_HEADER = "x-sandbox-signature";
export const SANDBOX_WEBHOOK_TOLERANCE_SECONDS = 300;

export type SandboxOutcome = "paid" | "failed" | "expired";

export type SandboxEventInput = {
  paymentId: string;
  amountCents: number;
  currency: string;
  /** Pay is "paid"; Cancel is "failed", which releases the reservation at once. */
  outcome: SandboxOutcome;
};

type SessionSecrets = Pick<Config, "sessionSecrets">;

const sandboxEventSchema = z.object({
  id: z.string().min(1),
  type: z.enum(["paid", "failed", "expired"]),
  providerReference: z.string().min(1),
  paymentId: z.string().min(1),
  amountCents: z.number().int().positive(),
  currency: z.string().regex(/^[A-Z]{3}$/),
});

/** The sandbox reference is derived from the payment, so the page can sign for it without a lookup. */
export const sandboxReference = (paymentId: string) => `sandbox_${paymentId}`;

/**
 * A key of its own, derived from each session secret, so a sandbox signature can never be replayed as a
 * cookie signature or the other way round. Several secrets keep verifying during a rotation.
 */
function webhookSecrets(config: SessionSecrets): string[] {
  return config.sessionSecrets.map((secret) => createHmac("sha256", secret).update("sandbox-webhook").digest("hex"));
}

function signatureHeader(secret: string, timestamp: number, body: string): string {
  return `t=${timestamp},v1=${hmacHex("sha256", secret, `${timestamp}.${body}`)}`;
}

/**
 * Signs an event as the sandbox "provider" would send it. The caller takes amountCents and currency from
 * the stored payment, never from the visitor's form, so the event passes the amount check.
 */
export function signSandboxEvent(
  event: SandboxEventInput,
  config: SessionSecrets,
  now: Date = new Date(),
): { body: string; headers: Record<string, string> } {
  const body = JSON.stringify({
    id: `evt_sandbox_${randomBytes(16).toString("base64url")}`,
    type: event.outcome,
    providerReference: sandboxReference(event.paymentId),
    paymentId: event.paymentId,
    amountCents: event.amountCents,
    currency: event.currency,
  });
  const timestamp = Math.floor(now.getTime() / 1000);
  return {
    body,
    headers: {
      "content-type": "application/json",
      [SANDBOX_SIGNATURE_HEADER]: signatureHeader(webhookSecrets(config)[0], timestamp, body),
    },
  };
}

function parseSignatureHeader(header: string): { timestamp: number; signatures: string[] } {
  let timestamp = Number.NaN;
  const signatures: string[] = [];
  for (const part of header.split(",")) {
    const [key, value = ""] = part.trim().split("=", 2);
    if (key === "t" && /^\d{1,12}$/.test(value)) timestamp = Number(value);
    if (key === "v1") signatures.push(value);
  }
  if (Number.isNaN(timestamp) || signatures.length === 0) {
    throw new WebhookRejected("signature", `the ${SANDBOX_SIGNATURE_HEADER} header is not t=...,v1=...`);
  }
  return { timestamp, signatures };
}

export function createSandboxGateway(config: SessionSecrets & Pick<Config, "publicUrl">): PaymentGateway {
  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    assertValidCheckoutRequest(request);
    return {
      providerReference: sandboxReference(request.paymentId),
      checkoutUrl: `${config.publicUrl}/pay/sandbox/${encodeURIComponent(request.paymentId)}`,
    };
  }

  async function parseWebhook(rawBody: string, headers: Headers, now: Date): Promise<VerifiedEvent> {
    const { timestamp, signatures } = parseSignatureHeader(requiredHeader(headers, SANDBOX_SIGNATURE_HEADER));
    const genuine = webhookSecrets(config).some((secret) => {
      const expected = hmacHex("sha256", secret, `${timestamp}.${rawBody}`);
      return signatures.some((signature) => hexSignatureMatches(signature, expected));
    });
    if (!genuine) throw new WebhookRejected("signature", "the sandbox signature does not match the body");
    assertSignedRecently(timestamp * 1000, now, SANDBOX_WEBHOOK_TOLERANCE_SECONDS * 1000, "the sandbox event");
    const event = sandboxEventSchema.safeParse(parseSignedJson(rawBody));
    if (!event.success) throw new WebhookRejected("malformed", "the sandbox event is incomplete");
    const { id, type, providerReference, paymentId, amountCents, currency } = event.data;
    return { eventId: id, type, providerReference, paymentId, amountCents, currency, providerEventType: type };
  }

  return { name: "sandbox", createCheckout, parseWebhook };
}
