import { parseWithZod } from "@conform-to/zod";
import { type AppLoadContext, data } from "@remix-run/node";
import { replyFromApi } from "~/lib/api-reply.server";
import { readMyOrderFeedback, saveFeedback } from "~/lib/feedback.server";
import type { Order } from "~/lib/orders.server";
import { getCurrentUser, returnPath } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { canRate, feedbackFormId } from "./feedback-rules";
import { orderFeedbackSchema } from "./feedback-schema";
import type { FeedbackAccess } from "./order-feedback";

/* The /find-order side of feedback: who may rate the order's lines, and the feedback form's post. */

/** Null when no line can be rated; a guest is told to register, a signed-in customer sees their feedback. */
export async function loadFeedbackAccess(
  context: AppLoadContext,
  request: Request,
  order: Order,
): Promise<FeedbackAccess | null> {
  if (!order.products.some((line) => canRate(order, line))) return null;
  const user = await getCurrentUser(request, context);
  if (!user) {
    const redirectTo = returnPath(request);
    return {
      kind: "guest",
      signInHref: `/login?${new URLSearchParams({ redirectTo })}`,
      signUpHref: `/signup?${new URLSearchParams({ redirectTo })}`,
    };
  }
  const mine = await readMyOrderFeedback(context, request, order._id);
  if (mine.ok) return { kind: "owner", feedback: mine.payload };
  return { kind: "foreign" };
}

/** intent=feedback: saved feedback comes back to the order with a toast; a refusal stays in its form. */
export async function feedbackIntent(context: AppLoadContext, request: Request, formData: FormData) {
  const submission = parseWithZod(formData, { schema: orderFeedbackSchema });
  const formId = feedbackFormId({
    product: String(formData.get("productId") ?? ""),
    productOption: String(formData.get("productOptionId") ?? ""),
  });
  if (submission.status !== "success") return data({ formId, result: submission.reply() }, { status: 400 });
  const { intent: _intent, ...input } = submission.value;
  const answer = await saveFeedback(context, request, input);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["stars", "message"] });
    return data({ formId, result }, { status });
  }
  return redirectWithSuccess(context, `/find-order?${new URLSearchParams({ id: input.orderId })}`, answer.message);
}
