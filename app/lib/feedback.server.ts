import type { AppLoadContext } from "@remix-run/node";
import {
  type OwnFeedback,
  feedbackPageSchema,
  ownFeedbackListSchema,
  publicFeedbackSchema,
} from "../../contract/answers/feedback";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of feedback. The public list throws (the error boundary shows it); leaving feedback answers
 * an ApiResult so the order page can show a refusal (401: 'Please Register to leave feedback') in its form.
 */

export type { OwnFeedback };

export function listPublicFeedback(context: AppLoadContext, query: { page: number; productId: string }) {
  return apiPayload(context, {
    path: "/v1/feedback/readPublic",
    body: { page: query.page, search: "", sortBy: "updatedAt", productId: query.productId },
    answer: feedbackPageSchema,
  });
}

/** The signed-in customer's feedback on this order; a 404 (not their order) or 401 comes back as a failure. */
export function readMyOrderFeedback(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, {
    path: "/v1/feedback/readMine",
    request,
    body: { orderId },
    answer: ownFeedbackListSchema,
  });
}

export function saveFeedback(
  context: AppLoadContext,
  request: Request,
  input: { orderId: string; productId: string; productOptionId: string; stars: number; message: string },
) {
  return apiCall(context, { path: "/v1/feedback/create", request, body: input, answer: publicFeedbackSchema });
}
