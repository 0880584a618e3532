import { createHash } from "node:crypto";
import { z } from "zod";
import type { GatewayCredentials } from "../config";
import { formatDecimalAmount, parseDecimalAmount } from "./amounts";
import { assertValidCheckoutRequest, checkoutMetadata } from "./checkout-request";
import { postJsonToProvider } from "./provider-http";
import { hexSignatureMatches, hmacHex, parseSignedJson, requiredHeader } from "./signatures";
import { GatewayUnavailable, WebhookRejected } from "./types";
import type { Checkout, CheckoutRequest, PaymentGateway, VerifiedEvent } from "./types";

/*
 * Shoppy's API reference is no longer published, so the request and answer shapes below are the ones
 * documented in docs/payments.md (from public integrations of POST /v1/pay and of its order webhooks).
 * Verify them against a live Shoppy account before enabling this gateway in production.
 */

const paymentCreatedSchema = z.object({ id: z.string().min(1), url: z.string().url() });

const customFieldsSchema = z.union([
  z.array(z.object({ name: z.string(), value: z.unknown() })),
  z.record(z.unknown()),
]);

const deliverySchema = z.object({ event: z.string().min(1), data: z.unknown() });

const orderSchema = z.object({
  order: z.object({
    id: z.string().min(1),
    price: z.union([z.string(), z.number()]),
    currency: z.string(),
    custom_fields: customFieldsSchema.nullish(),
  }),
});

/** Shoppy reports only paid orders; unpaid ones expire on our side. */
const EVENT_OUTCOMES: Record<string, "paid"> = { "order:paid": "paid" };

function paymentIdFrom(customFields: z.infer<typeof customFieldsSchema> | null | undefined): string | undefined {
  const value = Array.isArray(customFields)
    ? customFields.find((field) => field.name === "paymentId")?.value
    : customFields?.paymentId;
  return typeof value === "string" ? value : undefined;
}

export function createShoppyGateway(credentials: GatewayCredentials, options: { publicUrl: string }): PaymentGateway {
  async function createCheckout(request: CheckoutRequest): Promise<Checkout> {
    assertValidCheckoutRequest(request);
    const answer = await postJsonToProvider(
      "shoppy",
      `${credentials.apiBase}/pay`,
      { Authorization: credentials.apiKey },
      {
        title: request.description,
        // A JSON number written from the exact decimal string: 1250 cents is 12.5, never 12.4999...
        value: Number(formatDecimalAmount(request.amountCents)),
        currency: request.currency,
        quantity: 1,
        email: request.customerEmail,
        white_label: false,
        webhook_urls: [`${options.publicUrl}/v1/webhooks/shoppy`],
        return_url: request.successUrl,
        custom_fields: Object.entries(checkoutMetadata(request)).map(([name, value]) => ({ name, value })),
      },
    );
    const payment = paymentCreatedSchema.safeParse(answer);
    if (!payment.success) throw new GatewayUnavailable("shoppy", "Shoppy answered a payment without id or url");
    return { providerReference: payment.data.id, checkoutUrl: payment.data.url };
  }

  async function parseWebhook(rawBody: string, headers: Headers): Promise<VerifiedEvent> {
    const signature = requiredHeader(headers, "x-shoppy-signature");
    if (!hexSignatureMatches(signature, hmacHex("sha512", credentials.webhookSecret, rawBody))) {
      throw new WebhookRejected("signature", "the X-Shoppy-Signature header does not match the body");
    }
    const delivery = deliverySchema.safeParse(parseSignedJson(rawBody));
    if (!delivery.success) throw new WebhookRejected("malformed", "the Shoppy delivery has no event");
    const { event, data } = delivery.data;
    const order = orderSchema.safeParse(data);
    const outcome = EVENT_OUTCOMES[event];
    if (!outcome) {
      // Events about products, feedback or queries carry no order: their body's digest identifies them.
      const subject = order.success ? order.data.order.id : createHash("sha256").update(rawBody).digest("hex");
      return { eventId: `${event}:${subject}`, type: "ignored", providerEventType: event };
    }
    if (!order.success) throw new WebhookRejected("malformed", "the Shoppy event carries no readable order");
    const amountCents = parseDecimalAmount(order.data.order.price);
    if (amountCents === null)
      throw new WebhookRejected("malformed", "the Shoppy order price is not an exact USD amount");
    return {
      // Shoppy sends no event id; an order has one event of each kind, so the pair names this delivery.
      eventId: `${event}:${order.data.order.id}`,
      type: outcome,
      providerReference: order.data.order.id,
      paymentId: paymentIdFrom(order.data.order.custom_fields),
      amountCents,
      currency: order.data.order.currency.toUpperCase(),
      providerEventType: event,
    };
  }

  return { name: "shoppy", createCheckout, parseWebhook };
}
