import { getFormProps, getInputProps, getSelectProps } from "@conform-to/react";
import { withoutTextLimits } from "~/lib/control-props";
import type { SubmissionResult } from "@conform-to/react";
import { Form, Link } from "@remix-run/react";
import { KEYS_PER_BATCH_MAX, KEY_QUANTITY_MAX } from "../../../contract/admin-keys";
import type { GeneratedBatch, KeyOption } from "../../../contract/answers/admin-keys";
import { FormErrors } from "~/components/account/form-fields";
import { AdminTime, buttonClass, inputClass, secondaryButtonClass } from "~/components/admin/admin-ui";
import { keyGenerateSchema } from "./keys-schemas";
import { useSchemaForm } from "~/lib/use-schema-form";
import { Field } from "~/components/admin/admin-fields";

/* The redeem-key page's generate form and the codes it made, shown once (admin.keys.tsx). */

export const days = (count: number) => `${count} day${count === 1 ? "" : "s"}`;

export function GenerateForm({
  options,
  batchId,
  lastResult,
}: {
  options: KeyOption[];
  batchId: string;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(keyGenerateSchema, {
    id: `key-generate-${batchId}`,
    lastResult,
    defaultValue: { quantity: "1", count: "10", batchId },
  });
  const { key: planKey, ...planProps } = getSelectProps(fields.plan);
  const { key: quantityKey, ...quantityProps } = getInputProps(fields.quantity, { type: "number" });
  const { key: countKey, ...countProps } = getInputProps(fields.count, { type: "number" });
  const { key: expiresKey, ...expiresProps } = withoutTextLimits(getInputProps(fields.expires, { type: "date" }));
  return (
    <section aria-labelledby="key-generate-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="key-generate-title" className="mb-1 text-lg font-bold">
        Generate keys
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        Each key pays once for the chosen plan and quantity on /redeem-key. The codes are shown once, right after
        generating, or downloaded as CSV: only a fingerprint of each is stored.
      </p>
      {/* A native post either way: the CSV answer is a file to save, which a script-driven submission would not download. */}
      <Form method="post" reloadDocument {...getFormProps(form)} className="grid grid-cols-1 gap-3 sm:grid-cols-2">
        <input type="hidden" name="intent" value="generate" />
        <input type="hidden" name={fields.batchId.name} value={batchId} />
        <div className="sm:col-span-2">
          <FormErrors form={form} />
        </div>
        <Field meta={fields.plan} label="Plan and warranty" className="sm:col-span-2">
          <select key={planKey} {...planProps} className={inputClass}>
            <option value="">Choose…</option>
            {options.map((option) => (
              <optgroup key={option._id} label={`${option.product.title} — ${option.title}`}>
                {option.durations.map((duration) => (
                  <option key={duration.days} value={`${option._id}:${duration.days}`}>
                    {option.product.title} — {option.title}, {duration.title} ({days(duration.days)})
                  </option>
                ))}
              </optgroup>
            ))}
          </select>
        </Field>
        <Field meta={fields.quantity} label={`Quantity per key (1–${KEY_QUANTITY_MAX})`}>
          <input key={quantityKey} {...quantityProps} className={inputClass} />
        </Field>
        <Field meta={fields.count} label={`Number of keys (1–${KEYS_PER_BATCH_MAX})`}>
          <input key={countKey} {...countProps} className={inputClass} />
        </Field>
        <Field meta={fields.expires} label="Last valid day (UTC, optional)">
          <input key={expiresKey} {...expiresProps} className={inputClass} />
        </Field>
        <div className="flex flex-col gap-2 sm:col-span-2 sm:flex-row">
          <button type="submit" className={buttonClass}>
            Generate
          </button>
          <button type="submit" formAction="/admin/keys/csv" className={secondaryButtonClass}>
            Generate and download CSV
          </button>
        </div>
      </Form>
    </section>
  );
}

export function GeneratedCodes({ batch }: { batch: GeneratedBatch }) {
  return (
    <section
      aria-labelledby="key-codes-title"
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4 text-amber-950"
    >
      <h2 id="key-codes-title" className="text-lg font-bold">
        {batch.codes.length} new key{batch.codes.length === 1 ? "" : "s"}: copy them now
      </h2>
      <p className="text-sm">
        {batch.product} — {batch.option}, {days(batch.durationDays)} of warranty, quantity {batch.quantity}
        {batch.expiresAt ? (
          <>
            , valid until <AdminTime iso={batch.expiresAt} />
          </>
        ) : null}
        . These codes are not shown again; the list below shows only their last 4 characters.
      </p>
      <label htmlFor="generated-codes" className="text-sm font-semibold">
        Generated codes
      </label>
      <textarea
        id="generated-codes"
        readOnly
        rows={Math.min(batch.codes.length, 10)}
        value={batch.codes.join("\n")}
        className={`${inputClass} bg-white font-mono text-sm`}
      />
      <p>
        <Link to={`/admin/keys?batchId=${batch.batchId}`} className="text-sm font-semibold underline">
          List this batch
        </Link>
      </p>
    </section>
  );
}
