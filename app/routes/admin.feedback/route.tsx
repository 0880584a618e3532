import { getFormProps, getTextareaProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { FEEDBACK_FILTERS, feedbackReplySchema } from "../../../contract/admin-inbox";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type StaffFeedback, listFeedback, replyToFeedback, setFeedbackVisible } from "./feedback.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Feedback | Back office" }];

const FEEDBACK_PAGE = "/admin/feedback";
const FILTER_LABELS: Record<(typeof FEEDBACK_FILTERS)[number], string> = {
  all: "All",
  shown: "Shown",
  hidden: "Hidden",
};
const querySchema = z.object({ filter: listChoice(FEEDBACK_FILTERS, "all"), search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, list: await listFeedback(context, request, query) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "support");
  const formData = await request.formData();
  const intent = intentOf(formData, ["hide", "show", "reply"]);
  const id = String(formData.get("id") ?? "");
  const back = `${FEEDBACK_PAGE}${new URL(request.url).search}`;
  if (intent !== "reply") {
    return toastAnswer(context, back, await setFeedbackVisible(context, request, id, intent === "show"));
  }
  return formAction(formData, {
    form: `reply-${id}`,
    schema: feedbackReplySchema,
    fields: ["reply"],
    call: ({ reply }) => replyToFeedback(context, request, id, reply),
    done: (answer) => redirectWithSuccess(context, back, answer.message),
  });
}

function ReplyForm({ review }: { review: StaffFeedback }) {
  const formId = `reply-${review._id}`;
  const lastResult = useFormReply(formId)?.result;
  const [form, fields] = useSchemaForm(feedbackReplySchema, {
    id: formId,
    lastResult,
    defaultValue: { reply: review.reply ?? "" },
  });
  const { key, ...replyProps } = getTextareaProps(fields.reply);
  return (
    <details className="rounded-lg bg-slate-50 p-3" open={lastResult !== undefined}>
      <summary className="cursor-pointer font-semibold">{review.reply ? "Edit the reply" : "Reply publicly"}</summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="id" value={review._id} />
        <label htmlFor={fields.reply.id} className="text-sm font-semibold">
          Reply shown under the review as Admin (empty removes it)
        </label>
        <textarea
          key={key}
          {...replyProps}
          rows={3}
          className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
        />
        <ErrorList id={fields.reply.errorId} errors={fields.reply.errors} />
        <div>
          <SubmitButton intent="reply" pendingText="Saving…">
            Save reply
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}

function ReviewCard({ review }: { review: StaffFeedback }) {
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold">
          <span role="img" aria-label={`${review.stars} of 5 stars`}>
            {"★".repeat(review.stars)}
          </span>{" "}
          ·{" "}
          <Link to={`/shop/${review.product._id}`} className="break-words text-brand-700 underline">
            {review.product.title}
          </Link>
        </p>
        <span className="text-sm text-slate-600">
          {review.visible ? "Shown" : "Hidden"} · <AdminTime iso={review.updatedAt} />
        </span>
      </div>
      <p className="text-sm break-all text-slate-600">
        <Link to={`/admin/customers/${review.customer._id}`} className="text-brand-700 underline">
          {review.customer.email}
        </Link>
      </p>
      <p className="break-words whitespace-pre-line">{review.message}</p>
      {review.reply && (
        <p className="rounded-lg bg-slate-100 p-2 text-sm break-words">
          <span className="font-semibold">Admin:</span> {review.reply}
        </p>
      )}
      <Form method="post">
        <input type="hidden" name="id" value={review._id} />
        <button
          type="submit"
          name="intent"
          value={review.visible ? "hide" : "show"}
          aria-label={`${review.visible ? "Hide" : "Show"} the review: ${review.message.slice(0, 40)}`}
          className={`${secondaryButtonClass} px-3 py-1 text-sm`}
        >
          {review.visible ? "Hide" : "Show"}
        </button>
      </Form>
      <ReplyForm review={review} />
    </>
  );
}

export default function FeedbackModerationPage() {
  const { query, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Feedback">
        Customers&apos; reviews, newest first. A hidden review leaves /feedback and the product&apos;s rating; the
        customer still sees it on their order.
      </AdminHeading>
      <AdminList
        label="Reviews"
        pathname={FEEDBACK_PAGE}
        query={query}
        tabs={{ name: "filter", label: "Feedback filters", options: FILTER_LABELS }}
        filters={[{ name: "search", label: "Search feedback", placeholder: "review text, product or customer email" }]}
        empty={["No review matches this search.", "No review here."]}
        list={list}
        card={(review) => <ReviewCard review={review} />}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
