import { type SubmissionResult, getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { Form } from "@remix-run/react";
import { INVALID_LINE_MESSAGES } from "../../../contract/stock";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { inputClass } from "~/components/admin/admin-ui";
import { stockImportSchema } from "./stock-schemas";
import type { ShownReport } from "~/lib/stock-import-report";
import { useSchemaForm } from "~/lib/use-schema-form";
import { Field } from "~/components/admin/admin-fields";

/* The option stock page's import: the form, and the report of the last import (admin.stock.$optionId.tsx). */

export function ImportReportPanel({ report }: { report: ShownReport }) {
  const more = (shown: number, total: number) => (total > shown ? ` and ${total - shown} more` : "");
  return (
    <section
      aria-labelledby="import-report-title"
      role="status"
      data-testid="import-report"
      className="rounded-xl border border-emerald-300 bg-emerald-50 p-4 text-sm text-emerald-950"
    >
      <h2 id="import-report-title" className="mb-1 text-base font-bold break-words">
        {report.added > 0
          ? `Imported ${report.added} credential${report.added === 1 ? "" : "s"} into batch “${report.label}”`
          : "Nothing new imported"}
      </h2>
      <ul className="flex flex-col gap-1">
        <li data-testid="import-added">
          Added {report.added} ({report.seats} seat{report.seats === 1 ? "" : "s"})
        </li>
        <li data-testid="import-duplicates">
          Duplicate {report.duplicates}
          {report.duplicates > 0 &&
            ` (line ${report.duplicateLines.join(", ")}${more(report.duplicateLines.length, report.duplicates)})`}
        </li>
        <li data-testid="import-invalid">
          Invalid {report.invalid}
          {report.invalid > 0 && (
            <ul className="ml-4 list-disc">
              {report.invalidLines.map(({ line, reason }) => (
                <li key={line}>
                  line {line}: {INVALID_LINE_MESSAGES[reason]}
                </li>
              ))}
              {report.invalid > report.invalidLines.length && (
                <li>and {report.invalid - report.invalidLines.length} more</li>
              )}
            </ul>
          )}
        </li>
        {report.filled > 0 && <li>Waiting replacement requests filled first: {report.filled}</li>}
      </ul>
    </section>
  );
}

export function ImportForm({
  seats,
  lastResult,
}: {
  seats: number;
  lastResult: SubmissionResult<string[]> | undefined;
}) {
  const [form, fields] = useSchemaForm(stockImportSchema, { id: "stock-import", lastResult });
  const { key: textKey, ...textProps } = getTextareaProps(fields.text);
  const { key: fileKey, ...fileProps } = getInputProps(fields.file, { type: "file" });
  const { key: labelKey, ...labelProps } = getInputProps(fields.label, { type: "text" });
  return (
    <section aria-labelledby="stock-import-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="stock-import-title" className="mb-1 text-lg font-bold">
        Import credentials
      </h2>
      <p className="mb-3 text-sm text-slate-600">
        One <code>username:password</code> a line (the password may hold more colons); blank lines and a bare{" "}
        <code>:</code> are skipped. A credential already in this option&apos;s stock, sold or not, is refused as a
        duplicate.{" "}
        {seats > 1 ? `Each account is sold to ${seats} buyers (${seats} seats).` : "Each account is sold to one buyer."}
      </p>
      <Form method="post" encType="multipart/form-data" {...getFormProps(form)} className="flex flex-col gap-3">
        <FormErrors form={form} />
        <Field meta={fields.text} label="Credentials">
          <textarea
            key={textKey}
            {...textProps}
            rows={8}
            spellCheck={false}
            autoComplete="off"
            placeholder={"user@example.com:password\nsecond@example.com:password"}
            className={`${inputClass} font-mono text-sm`}
          />
        </Field>
        <Field meta={fields.file} label="Or a .txt file (up to 5 MB)">
          <input key={fileKey} {...fileProps} accept=".txt,text/plain" className="min-w-0 text-sm" />
        </Field>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.label.id} className="text-sm font-semibold">
            Batch label (optional)
          </label>
          <input
            key={labelKey}
            {...labelProps}
            aria-describedby={[labelProps["aria-describedby"], `${fields.label.id}-hint`].filter(Boolean).join(" ")}
            placeholder="e.g. Supplier A, November"
            className={inputClass}
          />
          <p id={`${fields.label.id}-hint`} className="text-sm text-slate-600">
            Left empty, the batch is named after the time of the import (such as 2026-11-26 06:04 UTC).
          </p>
          <ErrorList id={fields.label.errorId} errors={fields.label.errors} />
        </div>
        <div>
          <SubmitButton intent="import" pendingText="Importing…">
            Import
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}
