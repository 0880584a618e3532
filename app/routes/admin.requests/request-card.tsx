import { getFormProps, getTextareaProps } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import type { z } from "zod";
import {
  type REQUEST_FILTERS,
  answerRequestSchema,
  completeReplacementSchema,
  rejectRequestSchema,
} from "../../../contract/admin-inbox";
import type { StaffRequest } from "../../../contract/answers/admin-inbox";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { AdminTime } from "~/components/admin/admin-ui";
import { useFormReply } from "~/lib/form-reply";
import { useSchemaForm } from "~/lib/use-schema-form";

/* A request of the staff inbox as a card, with the forms that settle it (admin.requests.tsx). */

export const REQUEST_STATUS_LABELS: Record<(typeof REQUEST_FILTERS)[number], string> = {
  pending: "Pending",
  completed: "Completed",
  rejected: "Rejected",
  all: "All",
};

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
  const lastResult = useFormReply(formId)?.result;
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
  const lastResult = useFormReply(formId)?.result;
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

export function RequestCard({ request }: { request: StaffRequest }) {
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
          {REQUEST_STATUS_LABELS[request.status]} · <AdminTime iso={request.createdAt} />
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
