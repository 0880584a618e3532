import { staffDeleteAccountSchema } from "../../../contract/privacy";
import { TextField } from "~/components/account/form-fields";
import { AdminForm } from "~/components/admin/admin-fields";
import { secondaryButtonClass } from "~/components/admin/admin-ui";
import { PageSection } from "~/components/admin/detail-ui";
import { formatUsd } from "~/lib/money";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

/*
 * A customer's request about their data, answered by staff (issue 29, ADR 044): their export as a file, and deleting
 * their account with the reason (the request it answers). Owners and managers; both are audited by the API.
 */

export function CustomerPrivacy({ customerId, balance }: { customerId: string; balance: number }) {
  const [form, fields] = useRepliedSchemaForm(staffDeleteAccountSchema, "customer-delete");
  return (
    <PageSection
      card
      id="privacy"
      title="The customer’s data"
      description="For a customer who asks for their data, or to be forgotten. Customers can do both themselves under Settings."
    >
      {/* A native post: the answer is a file to save, which a script-driven submission would not download. */}
      <form method="post" action={`/admin/customers/${encodeURIComponent(customerId)}/export`}>
        <button type="submit" className={secondaryButtonClass}>
          Download their data (.json)
        </button>
        <p className="mt-1 text-sm text-slate-600">
          Without the usernames and passwords they bought: they take those from their own Settings.
        </p>
      </form>
      <AdminForm form={form} intent="delete" submitLabel="Delete the account" pendingText="Deleting…">
        <p className="text-sm font-semibold text-red-800">
          Deleting removes their name, email and password and signs them out everywhere; orders stay without them.
          {balance > 0 ? ` The balance of ${formatUsd(balance)} is forfeited.` : ""} This cannot be undone.
        </p>
        <TextField label="Reason for deleting" meta={fields.reason} type="text" autoComplete="off" />
      </AdminForm>
    </PageSection>
  );
}
