/**
 * The one interface behind which every hosted payment gateway sits.
 *
 * An adapter only talks to its provider: it opens a hosted checkout and it turns a webhook request into a
 * verified, provider-neutral event. It never touches the database. The payments service that calls it owns
 * the rules, and MUST, for every event that parseWebhook returns:
 *
 *  1. Record (gateway, eventId) in webhook_events inside the same transaction that applies the event, and
 *     apply nothing when that row already exists: providers deliver the same event more than once.
 *  2. Find the payment by the event's paymentId (our id, sent to the provider before its reference is stored)
 *     when the event carries one, else by (gateway, providerReference). A payment whose provider_reference
 *     is still null (the checkout has not stored it yet) takes the event's reference. A payment of ANOTHER
 *     gateway, or a stored reference that differs from the event's, changes nothing and is logged as a
 *     warning (an event signed for one gateway can never settle another gateway's payment).
 *     No payment found: keep nothing (not even the webhook_events row) and answer non-2xx (503) so the
 *     provider delivers the event again; a 2xx here would lose a real payment.
 *  3. For "paid": require amountCents === payment.amountCents and currency === payment.currency ("USD");
 *     a mismatch changes nothing and is logged as a warning.
 *  4. Apply transitions only forward: pending -> paid | failed | expired. A "failed" or "expired" event for a
 *     payment that is already paid changes nothing; a "paid" event for an expired payment is a late payment
 *     and is honoured (deliver what stock remains, credit the rest to the balance).
 *  5. Answer the provider 2xx for applied, duplicate and "ignored" events, so it stops retrying; answer
 *     400 for a WebhookRejected with reason signature, stale or malformed, 404 for unsupported, and 503
 *     for a payment not found (step 2).
 *
 * Adapters return paymentId whenever the provider echoes it (metadata, client reference, custom field).
 */

export type HostedGatewayName = "stripe" | "coinbase" | "shoppy" | "sandbox";

export type CheckoutRequest = {
  /** Our payments.id: it travels to the provider as metadata and comes back in webhooks. */
  paymentId: string;
  /** A positive integer number of cents. */
  amountCents: number;
  currency: "USD";
  /** Shown to the customer on the provider's page. */
  description: string;
  customerEmail: string;
  /** Absolute URLs the provider sends the customer back to. */
  successUrl: string;
  cancelUrl: string;
  /** Extra string pairs for the provider's dashboard (order id, purpose); paymentId is always added. */
  metadata?: Record<string, string>;
};

export type Checkout = {
  /** The provider's id for this checkout; webhooks name it, so store it as payments.provider_reference. */
  providerReference: string;
  /** Where to send the customer to pay. */
  checkoutUrl: string;
};

/** An event that moves a payment: paid, failed (declined, cancelled, underpaid) or expired (never paid). */
export type PaymentEvent = {
  eventId: string;
  type: "paid" | "failed" | "expired";
  providerReference: string;
  /** The paymentId we sent with the checkout, whenever the provider echoes it back: the caller finds the payment by it. */
  paymentId?: string;
  /** What the provider says this checkout is for, in integer cents. */
  amountCents: number;
  /** Upper-case ISO code, as the provider reports it. */
  currency: string;
  /** The provider's own name of the event, for logs. */
  providerEventType: string;
};

/** A genuine event that needs no action (Stripe's many other events, Coinbase's charge:pending, ...). */
export type IgnoredEvent = {
  eventId: string;
  type: "ignored";
  providerEventType: string;
};

export type VerifiedEvent = PaymentEvent | IgnoredEvent;

export type WebhookRejectionReason =
  /** Signature header missing, unparseable, or not matching the raw body. */
  | "signature"
  /** Correctly signed, but its timestamp is outside the accepted window: a replay, or a clock far off. */
  | "stale"
  /** Correctly signed, but not JSON or missing what an actionable event must carry (reference, exact amount). */
  | "malformed"
  /** The gateway it is addressed to is not enabled here. */
  | "unsupported";

/** Thrown by parseWebhook: nothing in it may be trusted, and nothing may change because of it. */
export class WebhookRejected extends Error {
  constructor(
    readonly reason: WebhookRejectionReason,
    message: string,
  ) {
    super(message);
    this.name = "WebhookRejected";
  }
}

/** The provider refused or failed to open a checkout; the caller tells the customer to try again or pick another method. */
export class GatewayUnavailable extends Error {
  constructor(
    readonly gateway: HostedGatewayName,
    message: string,
    options?: { cause?: unknown },
  ) {
    super(message, options);
    this.name = "GatewayUnavailable";
  }
}

export interface PaymentGateway {
  readonly name: HostedGatewayName;
  /** Opens a hosted checkout; throws GatewayUnavailable when the provider cannot be reached or refuses. */
  createCheckout(request: CheckoutRequest): Promise<Checkout>;
  /**
   * Verifies and reads one webhook delivery. rawBody must be the exact bytes received (decoded as UTF-8),
   * never a re-serialised JSON object; now is the time of receipt. Throws WebhookRejected.
   */
  parseWebhook(rawBody: string, headers: Headers, now: Date): Promise<VerifiedEvent>;
}
