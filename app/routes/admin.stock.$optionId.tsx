import { getFormProps, getInputProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction, data } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData, useLocation } from "@remix-run/react";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import {
  BATCH_LABEL_MAX_LENGTH,
  INVALID_LINE_MESSAGES,
  INVALID_LINE_REASONS,
  type InvalidLineReason,
  STOCK_IMPORT_MAX_BYTES,
  STOCK_STATES,
} from "../../contract/stock";
import {
  AdminHeading,
  AdminTable,
  AdminTime,
  Pager,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import {
  FILE_TOO_LARGE,
  stockImportSchema,
  stockRemoveBatchSchema,
  stockRemoveSchema,
} from "~/components/admin/stock-schemas";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { postedForm } from "~/lib/posted-form.server";
import {
  type ImportReport,
  type OptionStockFilters,
  type StockAccount,
  importStock,
  readOptionStock,
  removeStock,
} from "~/lib/admin-stock.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  {
    title: loaded
      ? `Stock of ${loaded.stock.option.product.title} — ${loaded.stock.option.title} | Back office`
      : "Stock",
  },
];

/** Line numbers an import's report carries in the address, per kind (the counts are complete). */
const REPORT_LINES_SHOWN = 50;

const notFound = () => new Response("Not found", { status: 404 });

function optionIdOf(value: string | undefined): string {
  if (!value || !PUBLIC_ID_PATTERN.test(value)) throw notFound();
  return value;
}

/*
 * The import's result survives the redirect in the address (counts and line numbers, never a credential),
 * so it stays on the page, with or without JavaScript, until the next search or import.
 */
function reportSearch(report: ImportReport): URLSearchParams {
  return new URLSearchParams({
    added: String(report.added),
    seats: String(report.seats),
    duplicates: String(report.duplicate.count),
    duplicateLines: report.duplicate.lines.slice(0, REPORT_LINES_SHOWN).join(","),
    invalid: String(report.invalid.count),
    invalidLines: report.invalid.lines
      .slice(0, REPORT_LINES_SHOWN)
      .map(({ line, reason }) => `${line}-${reason}`)
      .join(","),
    filled: String(report.replacementsFilled),
    label: report.batchLabel,
  });
}

const REPORT_PARAMS = ["added", "seats", "duplicates", "duplicateLines", "invalid", "invalidLines", "filled", "label"];

type ShownReport = {
  added: number;
  seats: number;
  duplicates: number;
  duplicateLines: number[];
  invalid: number;
  invalidLines: { line: number; reason: InvalidLineReason }[];
  filled: number;
  label: string;
};

function reportFrom(url: URL): ShownReport | null {
  const get = (name: string) => url.searchParams.get(name);
  const count = (name: string) => Math.max(0, Math.trunc(Number(get(name))) || 0);
  if (get("added") === null) return null;
  const lineNumbers = (name: string) =>
    (get(name) ?? "")
      .split(",")
      .map(Number)
      .filter((line) => Number.isInteger(line) && line > 0)
      .slice(0, REPORT_LINES_SHOWN);
  const invalidLines = (get("invalidLines") ?? "")
    .split(",")
    .map((item) => item.split("-"))
    .filter(([line, reason]) => Number(line) > 0 && (INVALID_LINE_REASONS as readonly string[]).includes(reason))
    .map(([line, reason]) => ({ line: Number(line), reason: reason as InvalidLineReason }))
    .slice(0, REPORT_LINES_SHOWN);
  return {
    added: count("added"),
    seats: count("seats"),
    duplicates: count("duplicates"),
    duplicateLines: lineNumbers("duplicateLines"),
    invalid: count("invalid"),
    invalidLines,
    filled: count("filled"),
    label: (get("label") ?? "").slice(0, BATCH_LABEL_MAX_LENGTH),
  };
}

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = optionIdOf(params.optionId);
  const url = new URL(request.url);
  const state = url.searchParams.get("state") ?? "";
  const filters: OptionStockFilters = {
    search: (url.searchParams.get("search") ?? "").trim().slice(0, 200),
    state: (STOCK_STATES as readonly string[]).includes(state) ? state : "",
    batch: (url.searchParams.get("batch") ?? "").slice(0, 200),
  };
  const stock = await readOptionStock(context, request, optionId, { ...filters, page: pageFrom(url) });
  return { filters, stock, report: reportFrom(url) };
}

/** An uploaded file's text; null unless it is UTF-8. */
async function fileText(file: File): Promise<string | null> {
  try {
    return new TextDecoder("utf-8", { fatal: true }).decode(await file.arrayBuffer());
  } catch {
    return null;
  }
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = optionIdOf(params.optionId);
  const here = `/admin/stock/${optionId}`;
  const formData = await postedForm(request, STOCK_IMPORT_MAX_BYTES);
  if (formData === "too large") {
    const submission = parseWithZod(new FormData(), { schema: stockImportSchema });
    return data(
      { intent: "import", result: submission.reply({ fieldErrors: { file: [FILE_TOO_LARGE] } }) },
      { status: 400 },
    );
  }
  const intent = formData.get("intent");

  if (intent === "import") {
    const submission = parseWithZod(formData, { schema: stockImportSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const { file, text, label } = submission.value;
    const lines = file ? await fileText(file) : (text ?? "");
    if (lines === null) {
      return data(
        { intent, result: submission.reply({ fieldErrors: { file: ["The file must be UTF-8 text"] } }) },
        { status: 400 },
      );
    }
    const answer = await importStock(context, request, optionId, { text: lines, label });
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: ["text", "label"] });
      return data({ intent, result }, { status });
    }
    return redirectWithSuccess(context, `${here}?${reportSearch(answer.payload)}`, answer.message);
  }

  if (intent === "remove" || intent === "removeBatch") {
    const submission =
      intent === "remove"
        ? parseWithZod(formData, { schema: stockRemoveSchema })
        : parseWithZod(formData, { schema: stockRemoveBatchSchema });
    if (submission.status !== "success") return data({ intent, result: submission.reply() }, { status: 400 });
    const value = submission.value;
    const answer = await removeStock(
      context,
      request,
      optionId,
      "accounts" in value ? { accounts: value.accounts } : { batchLabel: value.batchLabel },
    );
    if (!answer.ok) {
      const { result, status } = replyFromApi(submission, answer, { fields: [] });
      return data({ intent, result }, { status });
    }
    // Back to the same page of the list, its filters kept, an earlier import's result dropped.
    const back = new URL(request.url).searchParams;
    for (const name of REPORT_PARAMS) back.delete(name);
    return redirectWithSuccess(context, back.size ? `${here}?${back}` : here, answer.message);
  }
  throw new Response("Unknown form", { status: 400 });
}

/** The action's reply to the form with this intent, if that form was the one posted. */
function useReplyTo(intent: string) {
  const answer = useActionData<typeof action>();
  return answer?.intent === intent ? answer.result : undefined;
}

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

function ImportReportPanel({ report }: { report: ShownReport }) {
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

function ImportForm({ seats }: { seats: number }) {
  const [form, fields] = useSchemaForm(stockImportSchema, { id: "stock-import", lastResult: useReplyTo("import") });
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
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.text.id} className="text-sm font-semibold">
            Credentials
          </label>
          <textarea
            key={textKey}
            {...textProps}
            rows={8}
            spellCheck={false}
            autoComplete="off"
            placeholder={"user@example.com:password\nsecond@example.com:password"}
            className={`${inputClass} font-mono text-sm`}
          />
          <ErrorList id={fields.text.errorId} errors={fields.text.errors} />
        </div>
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.file.id} className="text-sm font-semibold">
            Or a .txt file (up to 5 MB)
          </label>
          <input key={fileKey} {...fileProps} accept=".txt,text/plain" className="min-w-0 text-sm" />
          <ErrorList id={fields.file.errorId} errors={fields.file.errors} />
        </div>
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

function StockFilters({
  filters,
  batches,
}: {
  filters: OptionStockFilters;
  batches: { label: string; free: number }[];
}) {
  return (
    <Form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
      <div className="flex flex-col gap-1">
        <label htmlFor="stock-filter-search" className="text-sm font-semibold">
          Username
        </label>
        <input
          id="stock-filter-search"
          name="search"
          type="search"
          defaultValue={filters.search}
          maxLength={200}
          placeholder="part of the username"
          className={inputClass}
        />
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="stock-filter-state" className="text-sm font-semibold">
          With a seat
        </label>
        <select id="stock-filter-state" name="state" defaultValue={filters.state} className={inputClass}>
          <option value="">in any state</option>
          {STOCK_STATES.map((state) => (
            <option key={state} value={state}>
              {state}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="stock-filter-batch" className="text-sm font-semibold">
          Batch
        </label>
        <select id="stock-filter-batch" name="batch" defaultValue={filters.batch} className={inputClass}>
          <option value="">all batches</option>
          {batches
            .filter((batch) => batch.label)
            .map((batch) => (
              <option key={batch.label} value={batch.label}>
                {batch.label}
              </option>
            ))}
        </select>
      </div>
      <button type="submit" className={secondaryButtonClass}>
        Filter
      </button>
    </Form>
  );
}

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

function StockList({ records }: { records: StockAccount[] }) {
  const [form, fields] = useSchemaForm(stockRemoveSchema, { id: "stock-remove", lastResult: useReplyTo("remove") });
  const location = useLocation();
  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      className="flex flex-col gap-3"
    >
      <FormErrors form={form} />
      <ErrorList id={fields.accounts.errorId} errors={fields.accounts.errors} />
      <AdminTable label="Credentials of this option">
        <thead>
          <tr>
            <th className={th}>
              <span className="sr-only">Choose</span>
            </th>
            <th className={th}>Username</th>
            <th className={th}>Seats</th>
            <th className={th}>Batch</th>
            <th className={th}>Added</th>
          </tr>
        </thead>
        <tbody>
          {records.map((account) => {
            const unsold = account.seats.some((seat) => seat.state === "available");
            return (
              <tr key={account._id}>
                <td className={td}>
                  {unsold && (
                    <input
                      type="checkbox"
                      name={fields.accounts.name}
                      value={account._id}
                      aria-label={`Choose ${account.username}`}
                      className="h-4 w-4"
                    />
                  )}
                </td>
                <td className={`${td} break-all font-mono`}>{account.username}</td>
                <td className={td}>
                  <SeatStates seats={account.seats} />
                </td>
                <td className={`${td} break-words`}>{account.batchLabel || "—"}</td>
                <td className={td}>
                  <AdminTime iso={account.addedAt} />
                </td>
              </tr>
            );
          })}
        </tbody>
      </AdminTable>
      <div>
        <SubmitButton intent="remove" pendingText="Removing…">
          Remove unsold seats of the chosen
        </SubmitButton>
      </div>
    </Form>
  );
}

function RemoveBatchForm({ batches }: { batches: { label: string; free: number }[] }) {
  const result = useReplyTo("removeBatch");
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

export default function OptionStockPage() {
  const { filters, stock, report } = useLoaderData<typeof loader>();
  const location = useLocation();
  const { option, batches, records, pager } = stock;
  const counts = option.stock;
  const filtered = Object.values(filters).some(Boolean);
  const here = `/admin/stock/${option._id}`;
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/stock" className="text-sm font-semibold text-brand-700 underline">
          ← All options
        </Link>
      </p>
      <AdminHeading title={`${option.product.title} — ${option.title}`}>
        {option.seats > 1
          ? `A shared option: each account is sold to ${option.seats} buyers, one seat each.`
          : "A private option: each account is sold to one buyer."}{" "}
        Passwords are not shown here; the export has them.
      </AdminHeading>
      <dl className="grid grid-cols-2 gap-2 text-sm sm:grid-cols-3 lg:grid-cols-6" data-testid="stock-counts">
        {[
          ["Free seats", counts.free],
          ["Reserved", counts.reserved],
          ["Delivered", counts.delivered],
          ["Replaced", counts.replaced],
          ["Removed", counts.removed],
          ["Accounts", counts.accounts],
        ].map(([label, value]) => (
          <div key={label} className="rounded-lg border border-slate-200 bg-white p-2">
            <dt className="text-slate-600">{label}</dt>
            <dd className="text-lg font-bold">{value}</dd>
          </div>
        ))}
      </dl>
      {report && <ImportReportPanel report={report} />}
      {/* A new result starts the form afresh (with JS too), so the same lines are not sent twice by mistake; a
          refused import keeps its text to correct. */}
      <ImportForm key={report ? location.key : "import"} seats={option.seats} />
      <section aria-labelledby="stock-list-title" className="flex flex-col gap-3">
        <div className="flex flex-wrap items-center justify-between gap-2">
          <h2 id="stock-list-title" className="text-lg font-bold">
            Credentials
          </h2>
          {/* A native post: the answer is a file to save, which a script-driven submission would not download. */}
          <form method="post" action={`${here}/export`}>
            <button type="submit" className={secondaryButtonClass}>
              Export unsold (.txt)
            </button>
          </form>
        </div>
        <StockFilters filters={filters} batches={batches} />
        {records.length === 0 ? (
          <p className="text-slate-600">
            {filtered ? "No credential matches." : "No credentials yet: import some above."}
          </p>
        ) : (
          <StockList records={records} />
        )}
        <Pager label="Credential pages" pager={pager} href={(page) => pageHref(here, filters, page)} />
      </section>
      <RemoveBatchForm batches={batches} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
