import type { AppLoadContext } from "@remix-run/node";
import { readMyOrderFeedback, saveFeedback } from "./feedback.server";
import { formAction } from "./form-action.server";
import type { Order } from "./orders.server";
import { getCurrentUser, returnPath } from "./session.server";
import { redirectWithSuccess } from "./toast.server";
import { type FeedbackAccess, canRate, feedbackFormId } from "./feedback-rules";
import { orderFeedbackSchema } from "./feedback-schema";

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

/** intent=feedback: saved feedback comes back to the order with a toast; a refusal stays in its line's form. */
export function orderFeedbackAction(context: AppLoadContext, request: Request, formData: FormData) {
  return formAction(formData, {
    form: feedbackFormId({
      product: String(formData.get("productId") ?? ""),
      productOption: String(formData.get("productOptionId") ?? ""),
    }),
    schema: orderFeedbackSchema,
    fields: ["stars", "message"],
    call: ({ intent: _intent, ...input }) => saveFeedback(context, request, input),
    done: (answer, { orderId }) =>
      redirectWithSuccess(context, `/find-order?${new URLSearchParams({ id: orderId })}`, answer.message),
  });
}
