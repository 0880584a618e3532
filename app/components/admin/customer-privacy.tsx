import { getFormProps, type SubmissionResult } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { staffDeleteAccountSchema } from "../../../contract/privacy";
import { FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { secondaryButtonClass } from "~/components/admin/admin-ui";
import { formatUsd } from "~/lib/money";
import { useSchemaForm } from "~/lib/use-schema-form";

/*
 * A customer's request about their data, answered by staff (issue 29, ADR 044): their export as a file, and deleting
 * their account with the reason (the request it answers). Owners and managers; both are audited by the API.
 */

export function CustomerPrivacy({
  customerId,
  balance,
  lastResult,
}: {
  customerId: string;
  balance: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(staffDeleteAccountSchema, { id: "customer-delete", lastResult });
  return (
    <section
      aria-labelledby="privacy-title"
      className="flex flex-col gap-3 rounded-xl border border-slate-200 bg-white p-4"
    >
      <h2 id="privacy-title" className="text-lg font-bold">
        The customer&rsquo;s data
      </h2>
      <p className="text-sm text-slate-600">
        For a customer who asks for their data, or to be forgotten. Customers can do both themselves under Settings.
      </p>
      {/* A native post: the answer is a file to save, which a script-driven submission would not download. */}
      <form method="post" action={`/admin/customers/${encodeURIComponent(customerId)}/export`}>
        <button type="submit" className={secondaryButtonClass}>
          Download their data (.json)
        </button>
      </form>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <p className="text-sm font-semibold text-red-800">
          Deleting removes their name, email and password and signs them out everywhere; orders stay without them.
          {balance > 0 ? ` The balance of ${formatUsd(balance)} is forfeited.` : ""} This cannot be undone.
        </p>
        <TextField label="Reason for deleting" meta={fields.reason} type="text" autoComplete="off" />
        <div>
          <SubmitButton intent="delete" pendingText="Deleting…">
            Delete the account
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
