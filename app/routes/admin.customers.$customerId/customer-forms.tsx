import { getSelectProps } from "@conform-to/react";
import { choiceSelectProps } from "~/lib/control-props";
import { balanceAdjustmentSchema, blockSchema } from "../../../contract/admin-customers";
import { TextField } from "~/components/account/form-fields";
import { AdminForm, Field, NumberField } from "~/components/admin/admin-fields";
import { PageSection } from "~/components/admin/detail-ui";
import { ONCE_KEY_FIELD } from "~/lib/once-key";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

/* The forms of a customer's back-office page that change their account: the balance and the block. */

export function BalanceForm({ onceKey }: { onceKey: string }) {
  const [form, fields] = useRepliedSchemaForm(balanceAdjustmentSchema, "balance-adjustment", {
    defaultValue: { direction: "credit" },
  });
  const { key: directionKey, ...directionProps } = choiceSelectProps(getSelectProps(fields.direction));
  return (
    <PageSection
      card
      id="balance"
      title="Adjust the balance"
      description="The customer sees the reason, from ‘Admin’. A debit cannot take the balance below zero."
    >
      <AdminForm form={form} intent="balance" submitLabel="Adjust balance" hidden={{ [ONCE_KEY_FIELD]: onceKey }}>
        {/* The select keeps the width of its longest choice; the amount takes the rest, or the next line. */}
        <div className="flex flex-wrap gap-2">
          <Field meta={fields.direction} label="Change" className="max-w-full">
            <select
              key={directionKey}
              {...directionProps}
              className="max-w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
            >
              <option value="credit">Credit (add to the balance)</option>
              <option value="debit">Debit (take from the balance)</option>
            </select>
          </Field>
          <NumberField meta={fields.amount} label="Amount (USD)" decimal className="min-w-32 flex-1" />
        </div>
        <TextField label="Reason" meta={fields.reason} type="text" autoComplete="off" />
      </AdminForm>
    </PageSection>
  );
}

export function BlockForm({ blocked }: { blocked: boolean }) {
  const intent = blocked ? "unblock" : "block";
  const id = `customer-${intent}`;
  const [form, fields] = useRepliedSchemaForm(blockSchema, id);
  return (
    <PageSection
      card
      id="block"
      title={blocked ? "Unblock the account" : "Block the account"}
      description={
        blocked
          ? "The customer can sign in again. Their old sessions stay ended."
          : "Signs the customer out everywhere at once and refuses their sign-in. The reason stays in the back office."
      }
    >
      <AdminForm form={form} intent={intent} submitLabel={blocked ? "Unblock" : "Block"}>
        <TextField
          label={blocked ? "Reason for unblocking" : "Reason for blocking"}
          meta={fields.reason}
          type="text"
          autoComplete="off"
        />
      </AdminForm>
    </PageSection>
  );
}
