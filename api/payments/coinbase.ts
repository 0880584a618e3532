import { z } from "zod";
import type { GatewayCredentials } from "../config";
import { formatDecimalAmount, parseDecimalAmount } from "./amounts";
import { assertValidCheckoutRequest, checkoutMetadata } from "./checkout-request";
import { postJsonToProvider } from "./provider-http";
import { assertSignedRecently, hexSignatureMatches, hmacHex, parseSignedJson, requiredHeader } from "./signatures";
import { GatewayUnavailable, WebhookRejected } from "./types";
import type { Checkout, CheckoutRequest, PaymentGateway, VerifiedEvent } from "./types";

/** The API version whose charge and webhook shapes this adapter reads. */
export const COINBASE_API_VERSION = "2018-03-22";

/**
 * Coinbase Commerce signs no timestamp, but each event carries created_at. It retries a failed delivery
 * for up to three days, so anything older cannot be a genuine delivery; replays inside the window are
 * stopped by the caller's record of event ids.
 */
export const COINBASE_EVENT_MAX_AGE_MS = 3 * 24 * 60 * 60 * 1000;

const chargeCreatedSchema = z.object({
  data: z.object({ id: z.string().min(1), code: z.string().min(1), hosted_url: z.string().url() }),
});

const deliverySchema = z.object({
  event: z.object({
    id: z.string().min(1),
    type: z.string().min(1),
    created_at: z.string().optional(),
    data: z.unknown(),
  }),
});

const chargeSchema = z.object({
  id: z.string().min(1),
  code: z.string().optional(),
  pricing: z.object({ local: z.object({ amount: z.union([z.string(), z.number()]), currency: z.string() }) }),
  metadata: z.record(z.unknown()).nullish(),
});

const EVENT_OUTCOMES: Record<string, "paid" | "failed"> = {
  "charge:confirmed": "paid",
  // An under- or over-payment that the merchant resolved in the Coinbase dashboard.
  "charge:resolved": "paid",
  // Expired unpaid, or paid too little; charge:pending and charge:delayed need no action from us.
  "charge:failed": "failed",
};

/** Coinbase limits a charge's name to 100 characters and its description to 200. */
const clip = (text: string, length: number) => (text.length > length ? `${text.slice(0, length - 1)}…` : text);

export function createCoinbaseGateway(credentials: GatewayCredentials): PaymentGateway {
  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    assertValidCheckoutRequest(request);
    const answer = await postJsonToProvider(
      "coinbase",
      `${credentials.apiBase}/charges`,
      { "X-CC-Api-Key": credentials.apiKey, "X-CC-Version": COINBASE_API_VERSION },
      {
        name: clip(request.description, 100),
        description: clip(request.description, 200),
        pricing_type: "fixed_price",
        local_price: { amount: formatDecimalAmount(request.amountCents), currency: request.currency },
        metadata: { ...checkoutMetadata(request), customer_email: request.customerEmail },
        redirect_url: request.successUrl,
        cancel_url: request.cancelUrl,
      },
    );
    const charge = chargeCreatedSchema.safeParse(answer);
    if (!charge.success)
      throw new GatewayUnavailable("coinbase", "Coinbase answered a charge without id or hosted_url");
    return { providerReference: charge.data.data.id, checkoutUrl: charge.data.data.hosted_url };
  }

  async function parseWebhook(rawBody: string, headers: Headers, now: Date): Promise<VerifiedEvent> {
    const signature = requiredHeader(headers, "x-cc-webhook-signature");
    if (!hexSignatureMatches(signature, hmacHex("sha256", credentials.webhookSecret, rawBody))) {
      throw new WebhookRejected("signature", "the X-CC-Webhook-Signature header does not match the body");
    }
    const delivery = deliverySchema.safeParse(parseSignedJson(rawBody));
    if (!delivery.success) throw new WebhookRejected("malformed", "the Coinbase delivery has no event");
    const { event } = delivery.data;
    if (event.created_at !== undefined) assertFresh(event.created_at, now);

    const outcome = EVENT_OUTCOMES[event.type];
    if (!outcome) return { eventId: event.id, type: "ignored", providerEventType: event.type };
    const charge = chargeSchema.safeParse(event.data);
    if (!charge.success) throw new WebhookRejected("malformed", "the Coinbase event carries no readable charge");
    const amountCents = parseDecimalAmount(charge.data.pricing.local.amount);
    if (amountCents === null)
      throw new WebhookRejected("malformed", "the Coinbase charge amount is not an exact USD amount");
    const paymentId = charge.data.metadata?.paymentId;
    return {
      eventId: event.id,
      type: outcome,
      providerReference: charge.data.id,
      paymentId: typeof paymentId === "string" ? paymentId : undefined,
      amountCents,
      currency: charge.data.pricing.local.currency.toUpperCase(),
      providerEventType: event.type,
    };
  }

  return { name: "coinbase", createCheckout, parseWebhook };
}

function assertFresh(createdAt: string, now: Date): void {
  const created = Date.parse(createdAt);
  if (Number.isNaN(created)) throw new WebhookRejected("malformed", "the Coinbase event has an unreadable created_at");
  assertSignedRecently(created, now, COINBASE_EVENT_MAX_AGE_MS, "the Coinbase event");
}
