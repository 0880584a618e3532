import { getFormProps, getTextareaProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { AdminForm, TextAreaField } from "~/components/admin/admin-fields";
import { AdminTime } from "~/components/admin/admin-ui";
import { ButtonForm, PageSection } from "~/components/admin/detail-ui";
import { confirmPaymentSchema, deliverSchema, refundLinesSchema } from "./order-schemas";
import type { AdminOrder, OrderCredentials } from "./order.server";
import { useFormReply } from "~/lib/form-reply";
import { formatUsd } from "~/lib/money";
import { useRepliedSchemaForm, useSchemaForm } from "~/lib/use-schema-form";

/*
 * The forms of a back-office order page (ADR 028). Each line and payment has its own form, whose id is the
 * form its reply names (useFormReply), so a refusal comes back beside the one that was sent.
 */

const plainTextarea = "w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";

export function DeliverForm({ line }: { line: AdminOrder["lines"][number] }) {
  const id = `deliver-${line._id}`;
  const [form, fields] = useRepliedSchemaForm(deliverSchema, id, { defaultValue: { lineId: line._id } });
  const hintId = `${fields.credentials.id}-hint`;
  const { key, ...textareaProps } = getTextareaProps(fields.credentials);
  return (
    <AdminForm
      form={form}
      intent="deliver"
      submitLabel="Deliver"
      pendingText="Delivering…"
      hidden={{ lineId: line._id }}
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <label htmlFor={fields.credentials.id} className="font-semibold">
        Credentials for {line.title} ({line.toDeliver} needed)
      </label>
      <p id={hintId} className="text-sm text-slate-700">
        One username:password per line, exactly {line.toDeliver}. The customer is mailed and sees them on their order.
      </p>
      <textarea
        key={key}
        {...textareaProps}
        aria-describedby={`${hintId} ${fields.credentials.errorId}`}
        rows={Math.min(10, line.toDeliver + 1)}
        placeholder="username:password"
        className={`${plainTextarea} bg-white font-mono`}
      />
      <ErrorList id={fields.credentials.errorId} errors={fields.credentials.errors} />
    </AdminForm>
  );
}

export function ConfirmForm({ payment }: { payment: AdminOrder["payments"][number] }) {
  const id = `confirm-${payment._id}`;
  const lastResult = useFormReply(id)?.result;
  const [form, fields] = useSchemaForm(confirmPaymentSchema, {
    id,
    lastResult,
    defaultValue: { paymentId: payment._id },
  });
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-3" open={lastResult !== undefined}>
      <summary className="cursor-pointer font-semibold">Confirm this payment by hand</summary>
      <p className="mt-3 mb-2 text-sm text-slate-600">
        Only when the provider shows the payment as paid and its webhook never came. The order is then delivered as a
        webhook would deliver it.
      </p>
      <AdminForm
        form={form}
        intent="confirm"
        submitLabel="Confirm payment"
        pendingText="Confirming…"
        hidden={{ paymentId: payment._id }}
      >
        <TextField
          label="Reference at the provider"
          meta={fields.reference}
          type="text"
          autoComplete="off"
          hint={payment.providerReference ? `This payment's is ${payment.providerReference}` : undefined}
        />
        <TextAreaField meta={fields.reason} label="Reason" rows={2} inputClassName={plainTextarea} />
      </AdminForm>
    </details>
  );
}

export function RefundForms({ order }: { order: AdminOrder }) {
  const reply = useFormReply();
  const [form, fields] = useSchemaForm(refundLinesSchema, {
    id: "refund-lines",
    lastResult: reply?.form === "refund-lines" ? reply.result : undefined,
  });
  const refundable = order.lines.filter((line) => line.refundable > 0);
  const total = refundable.reduce((sum, line) => sum + line.refundable, 0);
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-3" open={reply?.form.startsWith("refund")}>
      <summary className="cursor-pointer font-semibold">Refund to the customer&apos;s balance</summary>
      <div className="mt-3 flex flex-col gap-4">
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
          <FormErrors form={form} />
          <fieldset className="flex flex-col gap-1" aria-describedby={fields.lineIds.errorId}>
            <legend className="text-sm font-semibold">Lines to refund</legend>
            {refundable.map((line) => (
              <label key={line._id} className="flex items-center gap-2">
                <input type="checkbox" name={fields.lineIds.name} value={line._id} className="size-4" />
                {line.quantity} × {line.title} ({formatUsd(line.refundable)})
              </label>
            ))}
          </fieldset>
          <ErrorList id={fields.lineIds.errorId} errors={fields.lineIds.errors} />
          <div>
            <SubmitButton intent="refund-lines" pendingText="Refunding…">
              Refund selected lines
            </SubmitButton>
          </div>
        </Form>
        <ButtonForm
          intent="refund-order"
          label={`Refund the whole order (${formatUsd(total)})`}
          pendingText="Refunding…"
        />
        <p className="text-sm text-slate-600">
          A refunded line&apos;s credentials are withdrawn from the customer&apos;s order page.
        </p>
      </div>
    </details>
  );
}

/** The delivered credentials, shown on demand: the reply of the form "credentials" carries them, once. */
export function CredentialsPanel() {
  const shown = useFormReply<OrderCredentials>("credentials")?.extra;
  const delivered = shown?.filter((line) => line.credentials.length > 0) ?? [];
  return (
    <PageSection title="Delivered credentials" gap="gap-3">
      {!shown && (
        <>
          <p className="text-sm text-slate-600">Shown on demand; each viewing is recorded in the audit log.</p>
          <ButtonForm intent="credentials" label="Show credentials" pendingText="Loading…" />
        </>
      )}
      {shown && delivered.length === 0 && <p className="text-slate-600">Nothing was delivered on this order.</p>}
      {delivered.length > 0 && (
        <div data-testid="admin-credentials" className="flex flex-col gap-3">
          <p className="text-sm text-slate-600">This viewing was recorded in the audit log.</p>
          {delivered.map((line) => (
            <div key={line.lineId} className="rounded-xl border border-slate-200 bg-white p-3">
              <h3 className="font-semibold">
                {line.title}
                {line.isReplacement && " (replacement)"}
                {line.refunded && " (refunded: withdrawn from the customer)"}
              </h3>
              <ul className="mt-2 flex flex-col gap-1">
                {line.credentials.map((credential) => (
                  <li key={credential.position} className="break-all font-mono text-sm">
                    #{credential.position} {credential.username}:{credential.password}
                    {credential.replacedAt && <span className="font-sans text-slate-600"> (replaced)</span>}
                    {credential.warrantyEnds && (
                      <span className="block font-sans text-xs text-slate-600">
                        warranty until <AdminTime iso={credential.warrantyEnds} />
                      </span>
                    )}
                  </li>
                ))}
              </ul>
            </div>
          ))}
        </div>
      )}
    </PageSection>
  );
}
