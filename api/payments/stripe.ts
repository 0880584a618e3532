import Stripe from "stripe";
import { z } from "zod";
import type { GatewayCredentials } from "../config";
import { assertValidCheckoutRequest, checkoutMetadata } from "./checkout-request";
import { assertSignedRecently, requiredHeader } from "./signatures";
import { GatewayUnavailable, WebhookRejected } from "./types";
import type { Checkout, CheckoutRequest, PaymentGateway, VerifiedEvent } from "./types";

/** Stripe's own default, kept explicit: a signed event older than 5 minutes is a replay. */
export const STRIPE_WEBHOOK_TOLERANCE_SECONDS = 300;

const eventEnvelopeSchema = z.object({
  id: z.string().min(1),
  type: z.string().min(1),
  data: z.object({ object: z.unknown() }).nullish(),
});

/** The Checkout Session fields we read; everything else in the event is not ours to trust or use. */
const checkoutSessionSchema = z.object({
  id: z.string().min(1),
  amount_total: z.number().int().nonnegative(),
  currency: z.string().regex(/^[a-z]{3}$/i),
  payment_status: z.string(),
  client_reference_id: z.string().nullish(),
  metadata: z.record(z.string()).nullish(),
});

/** Which Checkout Session events move a payment, and where to. */
const SESSION_OUTCOMES: Record<string, "paid" | "failed" | "expired" | "paidIfPaymentStatusPaid"> = {
  // Cards settle at completion; delayed methods report payment_status "unpaid" here and settle later.
  "checkout.session.completed": "paidIfPaymentStatusPaid",
  "checkout.session.async_payment_succeeded": "paid",
  "checkout.session.async_payment_failed": "failed",
  "checkout.session.expired": "expired",
};

/** The SDK takes host, port and protocol, not a URL: STRIPE_API_BASE lets tests aim it at a local fake. */
function connectionOptions(apiBase: string): Pick<Stripe.StripeConfig, "host" | "port" | "protocol"> {
  const url = new URL(apiBase);
  if (url.pathname !== "/") throw new TypeError("STRIPE_API_BASE must be an origin without a path");
  const protocol = url.protocol === "http:" ? "http" : "https";
  return { host: url.hostname, port: url.port || (protocol === "http" ? 80 : 443), protocol };
}

export function createStripeGateway(credentials: GatewayCredentials): PaymentGateway {
  const stripe = new Stripe(credentials.apiKey, {
    ...connectionOptions(credentials.apiBase),
    maxNetworkRetries: 2,
    timeout: 20_000,
    telemetry: false,
  });

  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    assertValidCheckoutRequest(request);
    const metadata = checkoutMetadata(request);
    let session: Stripe.Checkout.Session;
    try {
      session = await stripe.checkout.sessions.create(
        {
          mode: "payment",
          line_items: [
            {
              quantity: 1,
              price_data: {
                currency: "usd",
                unit_amount: request.amountCents,
                product_data: { name: request.description },
              },
            },
          ],
          client_reference_id: request.paymentId,
          customer_email: request.customerEmail,
          metadata,
          payment_intent_data: { metadata },
          success_url: request.successUrl,
          cancel_url: request.cancelUrl,
        },
        // A retried request (network blip) answers the same session instead of opening a second one.
        { idempotencyKey: `checkout-session-${request.paymentId}` },
      );
    } catch (error) {
      throw new GatewayUnavailable("stripe", `Stripe refused the checkout: ${(error as Error).message}`, {
        cause: error,
      });
    }
    if (!session.url) throw new GatewayUnavailable("stripe", "Stripe answered a session without a URL");
    return { providerReference: session.id, checkoutUrl: session.url };
  }

  async function parseWebhook(rawBody: string, headers: Headers, now: Date): Promise<VerifiedEvent> {
    const signature = requiredHeader(headers, "stripe-signature");
    let event: unknown;
    try {
      // Tolerance 0: the SDK checks the signature alone; its own window would let a future timestamp through.
      event = stripe.webhooks.constructEvent(rawBody, signature, credentials.webhookSecret, 0);
    } catch (error) {
      if (!(error instanceof Stripe.errors.StripeSignatureVerificationError)) {
        throw new WebhookRejected("malformed", "the Stripe event is not JSON");
      }
      throw new WebhookRejected("signature", "the Stripe-Signature header does not verify");
    }
    assertSignedRecently(signedAt(signature) * 1000, now, STRIPE_WEBHOOK_TOLERANCE_SECONDS * 1000, "the Stripe event");
    return mapEvent(event);
  }

  return { name: "stripe", createCheckout, parseWebhook };
}

/** The signed t= of a Stripe-Signature header, read as the SDK reads it (the last one wins). */
function signedAt(header: string): number {
  let timestamp = Number.NaN;
  for (const item of header.split(",")) {
    const [key, value] = item.split("=");
    if (key === "t") timestamp = Number.parseInt(value, 10);
  }
  return timestamp;
}

function mapEvent(parsed: unknown): VerifiedEvent {
  const envelope = eventEnvelopeSchema.safeParse(parsed);
  if (!envelope.success) throw new WebhookRejected("malformed", "the Stripe event has no id or type");
  const event = envelope.data;
  const outcome = SESSION_OUTCOMES[event.type];
  const ignored = { eventId: event.id, type: "ignored", providerEventType: event.type } as const;
  if (!outcome) return ignored;
  const session = checkoutSessionSchema.safeParse(event.data?.object);
  if (!session.success) throw new WebhookRejected("malformed", "the Stripe event carries no readable Checkout Session");
  const { id, amount_total, currency, payment_status, client_reference_id, metadata } = session.data;
  if (outcome === "paidIfPaymentStatusPaid" && payment_status !== "paid") return ignored;
  return {
    eventId: event.id,
    type: outcome === "paidIfPaymentStatusPaid" ? "paid" : outcome,
    providerReference: id,
    paymentId: metadata?.paymentId ?? client_reference_id ?? undefined,
    amountCents: amount_total,
    currency: currency.toUpperCase(),
    providerEventType: event.type,
  };
}
