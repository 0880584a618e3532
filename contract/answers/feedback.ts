import { z } from "zod";
import { isoDateSchema, pageOf, publicIdSchema } from "./common";

/* Feedback's answers (/v1/feedback/*): the public list, a customer's feedback saved, and theirs on one order. */

export const publicFeedbackSchema = z.object({
  _id: publicIdSchema,
  stars: z.number().int().describe("1 to 5"),
  message: z.string(),
  product: z.object({ _id: publicIdSchema, title: z.string() }),
  reply: z
    .object({ message: z.string(), at: isoDateSchema })
    .nullable()
    .describe("the store's public answer, shown as 'Admin'"),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema.describe("ISO 8601; the last edit"),
});
export type PublicFeedback = z.infer<typeof publicFeedbackSchema>;

/** One page of public feedback (POST /v1/feedback/readPublic). */
export const feedbackPageSchema = pageOf(publicFeedbackSchema);

/** The customer's own feedback on a line of one of their orders (POST /v1/feedback/readMine). */
export const ownFeedbackSchema = z.object({
  product: publicIdSchema,
  productOption: publicIdSchema,
  stars: z.number().int(),
  message: z.string(),
  updatedAt: isoDateSchema,
  hidden: z.boolean().describe("the operator hid it from the public list"),
});
export type OwnFeedback = z.infer<typeof ownFeedbackSchema>;
export const ownFeedbackListSchema = z.array(ownFeedbackSchema);
