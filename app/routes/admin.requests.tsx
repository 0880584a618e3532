import { type SubmissionResult, getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import {
  REQUEST_FILTERS,
  answerRequestSchema,
  completeReplacementSchema,
  rejectRequestSchema,
  replacementSettingsSchema,
} from "../../contract/admin-inbox";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type ReplacementSettings,
  type StaffRequest,
  answerRequest,
  completeRequest,
  listReplacementSettings,
  listRequests,
  rejectRequest,
  saveReplacementSettings,
} from "~/lib/admin-inbox.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Requests | Back office" }];

const REQUESTS_PAGE = "/admin/requests";
const FILTER_LABELS: Record<(typeof REQUEST_FILTERS)[number], string> = {
  pending: "Pending",
  completed: "Completed",
  rejected: "Rejected",
  all: "All",
};
const querySchema = z.object({ filter: listChoice(REQUEST_FILTERS, "pending"), search: listText() });

/** The settings form: an unticked box is not sent, so here it means off. */
const settingsFormSchema = replacementSettingsSchema.extend({
  autoReplace: z
    .boolean()
    .optional()
    .transform((on) => on ?? false),
});

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQuery(new URL(request.url), querySchema);
  const [list, settings] = await Promise.all([
    listRequests(context, request, query),
    listReplacementSettings(context, request),
  ]);
  return { query, list, settings };
}

/** Several forms share the page: an answer names the form it belongs to. */
type FormAnswer = { form: string; result: SubmissionResult<string[]> };

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "support");
  const formData = await request.formData();
  const intent = String(formData.get("intent") ?? "");
  const id = String(formData.get("id") ?? "");
  const form = `${intent}-${id}`;
  const back = `${REQUESTS_PAGE}${new URL(request.url).search}`;

  if (intent === "settings") {
    const submission = parseWithZod(formData, { schema: settingsFormSchema });
    if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
    const answer = await saveReplacementSettings(context, request, id, submission.value);
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["autoReplace", "replacementLimit"] });
      return data<FormAnswer>({ form, result }, { status });
    }
    return redirectWithSuccess(context, `${back}#settings`, answer.message);
  }

  const schema =
    intent === "reject" ? rejectRequestSchema : intent === "answer" ? answerRequestSchema : completeReplacementSchema;
  const submission = parseWithZod(formData, { schema });
  if (submission.status !== "success") return data<FormAnswer>({ form, result: submission.reply() }, { status: 400 });
  const value = submission.value as { reason?: string; answer?: string; credential?: string };
  const answer =
    intent === "reject"
      ? await rejectRequest(context, request, id, value.reason ?? "")
      : intent === "answer"
        ? await answerRequest(context, request, id, value.answer ?? "")
        : await completeRequest(context, request, id, intent === "paste" ? (value.credential ?? "") : "");
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["reason", "answer", "credential"] });
    return data<FormAnswer>({ form, result }, { status });
  }
  return redirectWithSuccess(context, back, answer.message);
}

function useAnswerOf(form: string) {
  const answer = useActionData<typeof action>();
  return answer?.form === form ? answer.result : undefined;
}

const boxClass = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

/** One text box and a button: the paste, answer and reject forms. */
function WordsForm({
  request,
  intent,
  field,
  label,
  button,
  schema,
}: {
  request: StaffRequest;
  intent: "paste" | "answer" | "reject";
  field: "credential" | "reason" | "answer";
  label: string;
  button: string;
  schema: z.ZodTypeAny;
}) {
  const formId = `${intent}-${request._id}`;
  const lastResult = useAnswerOf(formId);
  const [form, fields] = useSchemaForm(schema, { id: formId, lastResult });
  const meta = (fields as unknown as Record<string, Parameters<typeof getTextareaProps>[0]>)[field];
  const { key, ...boxProps } = getTextareaProps(meta);
  return (
    <details className="rounded-lg bg-slate-50 p-3" open={lastResult !== undefined}>
      <summary className="cursor-pointer font-semibold">{button}</summary>
      <Form method="post" {...getFormProps(form)} className="mt-2 flex flex-col gap-2">
        <FormErrors form={form} />
        <input type="hidden" name="id" value={request._id} />
        <label htmlFor={meta.id} className="text-sm font-semibold">
          {label}
        </label>
        <textarea
          key={key}
          {...boxProps}
          rows={field === "credential" ? 1 : 3}
          className={`${boxClass} ${field === "credential" ? "font-mono" : ""}`}
        />
        <ErrorList id={meta.errorId} errors={meta.errors} />
        <div>
          <SubmitButton intent={intent} pendingText="Sending…">
            {button}
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}

function FromStockForm({ request }: { request: StaffRequest }) {
  const formId = `complete-${request._id}`;
  const lastResult = useAnswerOf(formId);
  const [form] = useSchemaForm(completeReplacementSchema, { id: formId, lastResult });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <input type="hidden" name="id" value={request._id} />
      <div>
        <SubmitButton intent="complete" pendingText="Delivering…">
          Replace from stock ({request.availableStock} available)
        </SubmitButton>
      </div>
    </Form>
  );
}

function RequestCard({ request }: { request: StaffRequest }) {
  const pending = request.status === "pending";
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <p className="font-semibold break-words">
          {request.kind === "replacement"
            ? `Replacement of credential #${(request.credentialIndex ?? 0) + 1}`
            : "Question"}{" "}
          · {request.product.title} ({request.product.optionTitle})
        </p>
        <span className="text-sm text-slate-600">
          {FILTER_LABELS[request.status]} · <AdminTime iso={request.createdAt} />
        </span>
      </div>
      <p className="text-sm break-all text-slate-600">
        <Link to={`/admin/customers/${request.customer._id}`} className="text-brand-700 underline">
          {request.customer.email}
        </Link>{" "}
        · order{" "}
        <Link to={`/admin/orders/${request.orderId}`} className="font-mono text-brand-700 underline">
          {request.orderId}
        </Link>
      </p>
      <p className="break-words whitespace-pre-line">{request.message}</p>
      {request.answer && (
        <p className="text-sm break-words">
          <span className="font-semibold">{request.status === "rejected" ? "Reason" : "Answer"}:</span> {request.answer}
        </p>
      )}
      {request.resolvedBy && <p className="text-sm text-slate-600">By {request.resolvedBy}</p>}
      {pending && (
        <div className="flex flex-col gap-2">
          {request.kind === "replacement" ? (
            <>
              <FromStockForm request={request} />
              <WordsForm
                request={request}
                intent="paste"
                field="credential"
                label="username:password (it is added to the option's stock as delivered)"
                button="Replace with a pasted credential"
                schema={completeReplacementSchema}
              />
            </>
          ) : (
            <WordsForm
              request={request}
              intent="answer"
              field="answer"
              label="Your answer (the customer reads it on the order and is mailed)"
              button="Answer"
              schema={answerRequestSchema}
            />
          )}
          <WordsForm
            request={request}
            intent="reject"
            field="reason"
            label="Why (the customer reads it on the order and is mailed)"
            button="Reject"
            schema={rejectRequestSchema}
          />
        </div>
      )}
    </>
  );
}

function SettingsForm({ product }: { product: ReplacementSettings }) {
  const formId = `settings-${product._id}`;
  const [form, fields] = useSchemaForm(settingsFormSchema, {
    id: formId,
    lastResult: useAnswerOf(formId),
    defaultValue: { autoReplace: product.autoReplace ? "on" : undefined, replacementLimit: product.replacementLimit },
  });
  const { key: autoKey, ...autoProps } = getInputProps(fields.autoReplace, { type: "checkbox" });
  const { key: limitKey, ...limitProps } = getInputProps(fields.replacementLimit, { type: "number" });
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-wrap items-center gap-3">
      <input type="hidden" name="id" value={product._id} />
      <label className="flex items-center gap-2">
        <input key={autoKey} {...autoProps} className="h-4 w-4" />
        Automatic
      </label>
      <label className="flex items-center gap-2">
        Limit
        <input key={limitKey} {...limitProps} className="w-20 rounded-md border border-slate-300 px-2 py-1" />
      </label>
      <button
        type="submit"
        name="intent"
        value="settings"
        aria-label={`Save ${product.title}`}
        className="rounded-lg border border-slate-300 px-3 py-1 text-sm font-semibold hover:bg-slate-100"
      >
        Save
      </button>
      <ErrorList id={fields.replacementLimit.errorId} errors={fields.replacementLimit.errors} />
    </Form>
  );
}

export default function RequestsPage() {
  const { query, list, settings } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Requests">
        Warranty replacements and questions about an order, the oldest pending first. Whatever you decide, the customer
        is mailed and sees it on their order.
      </AdminHeading>
      <AdminList
        label="Requests"
        pathname={REQUESTS_PAGE}
        query={query}
        tabs={{ name: "filter", label: "Request filters", options: FILTER_LABELS }}
        filters={[{ name: "search", label: "Search requests", placeholder: "customer email, product or order id" }]}
        empty={["No request matches this search.", "No request here."]}
        list={list}
        card={(request) => <RequestCard request={request} />}
      />
      <section id="settings" aria-labelledby="settings-title" className="flex flex-col gap-2">
        <h2 id="settings-title" className="text-lg font-bold">
          Replacement settings
        </h2>
        <p className="text-sm text-slate-600">
          Automatic: a request is filled from stock at once when there is stock; off, every request waits here. Limit:
          how many times one credential (and its successors) may be replaced.
        </p>
        <AdminList
          label="Replacement settings"
          pathname={REQUESTS_PAGE}
          list={{ records: settings }}
          columns={[
            { header: "Product", className: "break-words", cell: (product) => product.title },
            { header: "Settings", cell: (product) => <SettingsForm product={product} /> },
          ]}
        />
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
