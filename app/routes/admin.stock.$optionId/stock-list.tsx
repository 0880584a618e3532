import { type SubmissionResult, getFormProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { STOCK_STATES } from "../../../contract/stock";
import type { OptionStock, StockAccount } from "../../../contract/answers/admin-stock";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { AdminList, BulkForm } from "~/components/admin/admin-list";
import { AdminTime, inputClass } from "~/components/admin/admin-ui";
import { stockRemoveBatchSchema, stockRemoveSchema } from "./stock-schemas";
import { useSchemaForm } from "~/lib/use-schema-form";

/* The option stock page's credentials: the filtered list, ticked ones removed in bulk, a whole batch removed. */

const STATE_LABELS: Record<StockAccount["seats"][number]["state"], string> = {
  available: "available",
  reserved: "reserved",
  delivered: "delivered",
  replaced: "replaced",
  removed: "removed",
};
const STATE_TONES: Record<StockAccount["seats"][number]["state"], string> = {
  available: "bg-emerald-100 text-emerald-900",
  reserved: "bg-amber-100 text-amber-900",
  delivered: "bg-sky-100 text-sky-900",
  replaced: "bg-slate-200 text-slate-700",
  removed: "bg-slate-100 text-slate-500 line-through",
};

function SeatStates({ seats }: { seats: StockAccount["seats"] }) {
  return (
    <ul className="flex flex-wrap gap-1" aria-label="Seats">
      {seats.map((seat) => (
        <li
          key={`${seat.seat}-${seat.state}`}
          className={`rounded px-1.5 text-xs font-semibold ${STATE_TONES[seat.state]}`}
        >
          {seats.length > 1 ? `${seat.seat}: ` : ""}
          {STATE_LABELS[seat.state]}
        </li>
      ))}
    </ul>
  );
}

/** The option's accounts, filtered; unsold ones can be ticked and removed. */
export function CredentialList({
  stock,
  query,
  result,
}: {
  stock: OptionStock;
  query: Record<string, string | number>;
  result: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(stockRemoveSchema, { id: "stock-remove", lastResult: result });
  const batches = stock.batches.filter((batch) => batch.label).map((batch) => batch.label);
  return (
    <AdminList
      label="Credentials of this option"
      pathname={`/admin/stock/${stock.option._id}`}
      query={query}
      filters={[
        // Usernames are stored encrypted (ADR 056): found whole, by their keyed hash, not by a part.
        { name: "search", label: "Exact username", placeholder: "the whole username, in any letter case" },
        { name: "state", label: "With a seat", any: "in any state", choices: STOCK_STATES },
        { name: "batch", label: "Batch", any: "all batches", choices: batches },
      ]}
      submit="Filter"
      empty={["No credential matches.", "No credentials yet: import some above."]}
      list={stock}
      select={{
        form: form.id,
        name: fields.accounts.name,
        label: (account) => `Choose ${account.username}`,
        when: (account) => account.seats.some((seat) => seat.state === "available"),
      }}
      bulk={
        <BulkForm form={form} field={fields.accounts} intent="remove" pendingText="Removing…">
          Remove unsold seats of the chosen
        </BulkForm>
      }
      columns={[
        { header: "Username", className: "break-all font-mono", cell: (account) => account.username },
        { header: "Seats", cell: (account) => <SeatStates seats={account.seats} /> },
        { header: "Batch", className: "break-words", cell: (account) => account.batchLabel || "—" },
        { header: "Added", cell: (account) => <AdminTime iso={account.addedAt} /> },
      ]}
    />
  );
}

export function RemoveBatchForm({
  batches,
  result,
}: {
  batches: { label: string; free: number }[];
  result: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(stockRemoveBatchSchema, { id: "stock-remove-batch", lastResult: result });
  const removable = batches.filter((batch) => batch.label && batch.free > 0);
  if (removable.length === 0) return null;
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-4" open={!!result}>
      <summary className="cursor-pointer font-semibold">Remove a whole batch</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-3">
        <FormErrors form={form} />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.batchLabel.id} className="text-sm font-semibold">
            Batch
          </label>
          <select id={fields.batchLabel.id} name={fields.batchLabel.name} required className={inputClass}>
            {removable.map((batch) => (
              <option key={batch.label} value={batch.label}>
                {batch.label} ({batch.free} unsold seat{batch.free === 1 ? "" : "s"})
              </option>
            ))}
          </select>
          <ErrorList id={fields.batchLabel.errorId} errors={fields.batchLabel.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label className="flex items-start gap-2 text-sm">
            <input type="checkbox" name={fields.confirm.name} required className="mt-1 h-4 w-4" />
            Take this batch&apos;s unsold seats off sale. Sold seats stay; removed credentials are never sold or
            imported again.
          </label>
          <ErrorList id={fields.confirm.errorId} errors={fields.confirm.errors} />
        </div>
        <div>
          <SubmitButton intent="removeBatch" pendingText="Removing…">
            Remove batch
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}
