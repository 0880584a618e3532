import { z } from "zod";
import { feedbackMessageField, starsFormField } from "../../contract/feedback";
import { FEEDBACK_INTENT } from "./feedback-rules";

/* The order page's feedback form, parsed the same way by the browser (conform) and by the /find-order action. */

export const orderFeedbackSchema = z.object({
  intent: z.literal(FEEDBACK_INTENT),
  orderId: z.string().max(64),
  productId: z.string().max(64),
  productOptionId: z.string().max(64),
  stars: starsFormField,
  message: feedbackMessageField,
});
