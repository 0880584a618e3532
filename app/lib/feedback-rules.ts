import { isPaidOrderStatus } from "../../contract/browser/order";
import type { OwnFeedback } from "./feedback.server";
import type { Order, OrderProduct } from "./orders.server";

/* The order page's feedback rules that the browser needs too; the form's schema lives in feedback-schema.ts. */

export const FEEDBACK_INTENT = "feedback";

/** Who is looking at the order: a guest, a customer it does not belong to, or its owner with their feedback. */
export type FeedbackAccess =
  | { kind: "guest"; signInHref: string; signUpHref: string }
  | { kind: "foreign" }
  | { kind: "owner"; feedback: OwnFeedback[] };

/** One form per order line: its conform id, so an answer finds its way back to the right form. */
export const feedbackFormId = (line: { product: string; productOption: string }) =>
  `feedback-${line.product}-${line.productOption}`;

/**
 * A line the customer received (paid, credentials delivered), rated once: a replacement line shares its
 * original's feedback, and an original whose credentials were all replaced still counts as received.
 * The API checks again.
 */
export function canRate(order: Pick<Order, "status" | "products">, line: OrderProduct): boolean {
  if (!isPaidOrderStatus(order.status)) return false;
  if (line.isReplacement) return false;
  return order.products.some(
    (other) =>
      other.creds.length > 0 && (other === line || (other.isReplacement && other.productOption === line.productOption)),
  );
}
