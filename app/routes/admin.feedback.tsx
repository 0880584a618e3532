import { type SubmissionResult, getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { FEEDBACK_FILTERS, feedbackReplySchema } from "../../contract/admin-inbox";
import { AdminHeading, AdminTime, Pager, pageHref, secondaryButtonClass } from "~/components/admin/admin-ui";
import { FilterLinks, SearchForm, listQueryFrom } from "~/components/admin/inbox-ui";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type StaffFeedback, listFeedback, replyToFeedback, setFeedbackVisible } from "~/lib/admin-inbox.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Feedback | Back office" }];

const FEEDBACK_PAGE = "/admin/feedback";
const FILTER_LABELS: Record<(typeof FEEDBACK_FILTERS)[number], string> = {
  all: "All",
  shown: "Shown",
  hidden: "Hidden",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQueryFrom(new URL(request.url), FEEDBACK_FILTERS, "all");
  return { query, list: await listFeedback(context, request, query) };
}

type FormAnswer = { form: string; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "support");
  const formData = await request.formData();
  const intent = formData.get("intent");
  const id = String(formData.get("id") ?? "");
  const back = `${FEEDBACK_PAGE}${new URL(request.url).search}`;
  if (intent === "hide" || intent === "show") {
    const answer = await setFeedbackVisible(context, request, id, intent === "show");
    return answer.ok
      ? redirectWithSuccess(context, back, answer.message)
      : redirectWithError(context, back, answer.message);
  }
  const form = `reply-${id}`;
  const submission = parseWithZod(formData, { schema: feedbackReplySchema });
  if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
  const answer = await replyToFeedback(context, request, id, submission.value.reply);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["reply"] });
    return data<FormAnswer>({ form, result }, { status });
  }
  return redirectWithSuccess(context, back, answer.message);
}

function ReplyForm({ review }: { review: StaffFeedback }) {
  const formId = `reply-${review._id}`;
  const answer = useActionData<typeof action>();
  const lastResult = answer?.form === formId ? answer.result : undefined;
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

export default function FeedbackModerationPage() {
  const { query, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Feedback">
        Customers&apos; reviews, newest first. A hidden review leaves /feedback and the product&apos;s rating; the
        customer still sees it on their order.
      </AdminHeading>
      <FilterLinks
        label="Feedback filters"
        pathname={FEEDBACK_PAGE}
        current={query.filter}
        search={query.search}
        filters={FEEDBACK_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
      />
      <SearchForm
        id="feedback-search"
        label="Search feedback"
        filter={query.filter}
        search={query.search}
        placeholder="review text, product or customer email"
      />
      {list.records.length === 0 ? (
        <p className="text-slate-600">{query.search ? "No review matches this search." : "No review here."}</p>
      ) : (
        <ul aria-label="Reviews" className="flex flex-col gap-3">
          {list.records.map((review) => (
            <li key={review._id} className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <p className="font-semibold">
                  <span aria-label={`${review.stars} of 5 stars`}>{"★".repeat(review.stars)}</span> ·{" "}
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
            </li>
          ))}
        </ul>
      )}
      <Pager
        label="Feedback pages"
        pager={list.pager}
        href={(page) => pageHref(FEEDBACK_PAGE, { filter: query.filter, search: query.search }, page)}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
