import { z } from "zod";
import { feedbackMessageField, starsFormField } from "../../../contract/feedback";
import type { Order, OrderProduct } from "~/lib/orders.server";

/* The order page's feedback form, parsed the same way by the browser (conform) and by the /find-order action. */

export const FEEDBACK_INTENT = "feedback";

export const orderFeedbackSchema = z.object({
  intent: z.literal(FEEDBACK_INTENT),
  orderId: z.string().max(64),
  productId: z.string().max(64),
  productOptionId: z.string().max(64),
  stars: starsFormField,
  message: feedbackMessageField,
});

/** One form per order line: its conform id, so an answer finds its way back to the right form. */
export const feedbackFormId = (line: { product: string; productOption: string }) =>
  `feedback-${line.product}-${line.productOption}`;

/**
 * A line the customer received (paid, credentials delivered), rated once: a replacement line shares its
 * original's feedback, and an original whose credentials were all replaced still counts as received.
 * The API checks again.
 */
export function canRate(order: Pick<Order, "status" | "products">, line: OrderProduct): boolean {
  if (order.status !== "completed" && order.status !== "partiallyComplete") return false;
  if (line.isReplacement) return false;
  return order.products.some(
    (other) =>
      other.creds.length > 0 && (other === line || (other.isReplacement && other.productOption === line.productOption)),
  );
}
