import { z } from "zod";
import { publicIdSchema, usdSchema } from "./common";
import { PAYMENT_PURPOSES, PAYMENT_STATUSES } from "../browser/order";

/* Payment providers' events (POST /v1/webhooks/{gateway}) and the sandbox gateway's page (/v1/sandbox/payments). */

/** What became of a provider's event: applied, a duplicate of one applied before, or ignored. */
export const webhookOutcomeSchema = z.enum(["applied", "duplicate", "ignored"]);
export type WebhookOutcome = z.infer<typeof webhookOutcomeSchema>;

export const webhookTakenSchema = z.object({ outcome: webhookOutcomeSchema });

/** GET /v1/sandbox/payments/{paymentId}. */
export const sandboxPaymentSchema = z.object({
  paymentId: publicIdSchema,
  orderId: publicIdSchema.nullable().describe("null for a top-up"),
  purpose: z.enum(PAYMENT_PURPOSES),
  amount: usdSchema.describe("the stored amount"),
  status: z.enum(PAYMENT_STATUSES),
  lines: z
    .array(
      z.object({
        title: z.string(),
        subtitle: z.string().describe("the warranty duration"),
        quantity: z.number().int(),
        price: usdSchema.describe("the line's price: unit price × quantity"),
      }),
    )
    .describe("what the order's payment pays for, as the order holds it; empty for a top-up"),
  discount: usdSchema.describe("the coupon's discount on the order, 0 for none"),
});
export type SandboxPayment = z.infer<typeof sandboxPaymentSchema>;

/** POST /v1/sandbox/payments/{paymentId}/pay and /cancel. */
export const sandboxSubmittedSchema = z.object({
  outcome: webhookOutcomeSchema,
  orderId: publicIdSchema.nullable(),
  purpose: z.enum(PAYMENT_PURPOSES),
});
export type SandboxSubmitted = z.infer<typeof sandboxSubmittedSchema>;
