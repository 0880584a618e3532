import { Form, Link } from "@remix-run/react";
import { FEEDBACK_MESSAGE_MAX_LENGTH, REGISTER_TO_LEAVE_FEEDBACK } from "../../../contract/browser/feedback";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import type { OwnFeedback } from "~/lib/feedback.server";
import { StarsShown } from "~/components/feedback/stars-shown";
import { StarRatingInput } from "~/components/feedback/stars";
import { MessageField } from "~/components/tickets/ticket-fields";
import type { OrderProduct } from "~/lib/orders.server";
import { FORM_CONSTRAINTS } from "~/lib/feedback-schema.constraints";
import { useFormReply } from "~/lib/form-reply";
import { getFormProps, useServerForm } from "~/lib/server-form";
import { FEEDBACK_INTENT, type FeedbackAccess, feedbackFormId } from "~/lib/feedback-rules";
import type { orderFeedbackSchema } from "~/lib/feedback-schema";
import type { z } from "zod";

/**
 * The feedback part of a delivered order line on /find-order (spec section 2: the feedback modal), as a
 * `<details>` disclosure: it opens and posts without JavaScript. Posting again edits the feedback.
 */
export function OrderFeedback({
  orderId,
  product,
  access,
}: {
  orderId: string;
  product: OrderProduct;
  access: FeedbackAccess;
}) {
  if (access.kind === "foreign") return null;
  if (access.kind === "guest") {
    return (
      <p className="text-sm text-slate-700" data-testid="feedback-register">
        {REGISTER_TO_LEAVE_FEEDBACK}:{" "}
        <Link to={access.signUpHref} className="font-semibold text-brand-700 underline">
          Create Account
        </Link>{" "}
        or{" "}
        <Link to={access.signInHref} className="font-semibold text-brand-700 underline">
          Sign In
        </Link>
        .
      </p>
    );
  }
  const mine = access.feedback.find(
    (entry) => entry.product === product.product && entry.productOption === product.productOption,
  );
  return <FeedbackForm orderId={orderId} product={product} mine={mine} />;
}

function FeedbackForm({
  orderId,
  product,
  mine,
}: {
  orderId: string;
  product: OrderProduct;
  mine: OwnFeedback | undefined;
}) {
  const lastResult = useFormReply(feedbackFormId(product))?.result;
  const [form, fields] = useServerForm<z.input<typeof orderFeedbackSchema>>(FORM_CONSTRAINTS.orderFeedback, {
    id: feedbackFormId(product),
    lastResult,
    defaultValue: { stars: mine?.stars, message: mine?.message ?? "" },
  });
  const failed = Boolean(lastResult?.error);
  return (
    <details className="group rounded-lg border border-slate-200" open={failed || undefined}>
      <summary className="flex cursor-pointer flex-wrap items-center gap-2 px-3 py-2 font-semibold text-brand-700">
        {mine ? (
          <>
            Edit your feedback <StarsShown stars={mine.stars} className="text-base" />
          </>
        ) : (
          "Leave Feedback"
        )}
      </summary>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3 border-t border-slate-200 p-3">
        <input type="hidden" name="orderId" value={orderId} />
        <input type="hidden" name="productId" value={product.product} />
        <input type="hidden" name="productOptionId" value={product.productOption} />
        <FormErrors form={form} />
        {mine?.hidden && (
          <p className="text-sm text-slate-600">Our team has hidden this feedback from the public page.</p>
        )}
        <StarRatingInput meta={fields.stars} label={`Your rating of ${product.title}`} />
        <MessageField label="Your feedback" meta={fields.message} rows={3} />
        <p className="-mt-2 text-xs text-slate-600">
          Shown on the public feedback page with the product, never with your name or email (at most{" "}
          {FEEDBACK_MESSAGE_MAX_LENGTH} characters).
        </p>
        <div>
          <SubmitButton intent={FEEDBACK_INTENT} pendingText="Sending…">
            {mine ? "Update Feedback" : "Send Feedback"}
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}
