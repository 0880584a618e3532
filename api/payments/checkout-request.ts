import { z } from "zod";
import type { CheckoutRequest } from "./types";

const checkoutRequestSchema = z.object({
  paymentId: z.string().min(1).max(200),
  amountCents: z.number().int().positive().max(100_000_000),
  currency: z.literal("USD"),
  description: z.string().trim().min(1),
  customerEmail: z.string().email(),
  successUrl: z.string().url(),
  cancelUrl: z.string().url(),
  metadata: z.record(z.string()).optional(),
});

/**
 * Adapters are called by our own services, so a bad request here is a bug: fail loudly before
 * anything reaches a provider rather than open a checkout for a wrong amount.
 */
export function assertValidCheckoutRequest(request: CheckoutRequest): void {
  const parsed = checkoutRequestSchema.safeParse(request);
  if (!parsed.success) {
    const issue = parsed.error.issues[0];
    throw new TypeError(`invalid checkout request: ${issue.path.join(".")} ${issue.message}`);
  }
}

/** The metadata every provider receives: the caller's pairs plus our payment id, which always wins. */
export function checkoutMetadata(request: CheckoutRequest): Record<string, string> {
  return { ...request.metadata, paymentId: request.paymentId };
}
