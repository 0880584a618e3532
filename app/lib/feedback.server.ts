import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of feedback. The public list throws (the error boundary shows it); leaving feedback answers
 * an ApiResult so the order page can show a refusal (401: 'Please Register to leave feedback') in its form.
 */

const feedbackSchema = z.object({
  _id: z.string(),
  stars: z.number().int(),
  message: z.string(),
  product: z.object({ _id: z.string(), title: z.string() }),
  reply: z.object({ message: z.string(), at: z.string() }).nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type PublicFeedback = z.infer<typeof feedbackSchema>;

const feedbackPageSchema = z.object({
  records: z.array(feedbackSchema),
  pager: z.object({
    page: z.number().int(),
    previous: z.number().int().nullable(),
    next: z.number().int().nullable(),
    pages: z.number().int(),
  }),
});
export type FeedbackPage = z.infer<typeof feedbackPageSchema>;

const ownFeedbackSchema = z.object({
  product: z.string(),
  productOption: z.string(),
  stars: z.number().int(),
  message: z.string(),
  updatedAt: z.string(),
  hidden: z.boolean(),
});
export type OwnFeedback = z.infer<typeof ownFeedbackSchema>;

export function listPublicFeedback(context: AppLoadContext, query: { page: number; productId: string }) {
  return apiPayload(context, {
    path: "/v1/feedback/readPublic",
    body: { page: query.page, search: "", sortBy: "updatedAt", productId: query.productId },
    payload: feedbackPageSchema,
  });
}

/** The signed-in customer's feedback on this order; a 404 (not their order) or 401 comes back as a failure. */
export function readMyOrderFeedback(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, {
    path: "/v1/feedback/readMine",
    request,
    body: { orderId },
    payload: z.array(ownFeedbackSchema),
  });
}

export function saveFeedback(
  context: AppLoadContext,
  request: Request,
  input: { orderId: string; productId: string; productOptionId: string; stars: number; message: string },
) {
  return apiCall(context, { path: "/v1/feedback/create", request, body: input, payload: feedbackSchema });
}
