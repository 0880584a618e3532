import { Form, Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { SubmitButton } from "~/components/account/form-fields";
import { AdminTable, secondaryButtonClass, td, th } from "~/components/admin/admin-ui";
import { useFormReply } from "~/lib/form-reply";

/*
 * The pieces of the back office's detail and edit screens: a titled section (bare or as a card), a table
 * described by its columns, a link back to the list, and the forms that are only a button.
 */

const slug = (title: string) => title.toLowerCase().replace(/[^a-z0-9]+/g, "-");

/** A titled part of a page; `card` frames it; `aside` sits beside the title. */
export function PageSection({
  title,
  description,
  card = false,
  aside,
  id,
  gap = "gap-2",
  children,
}: {
  title: ReactNode;
  description?: ReactNode;
  card?: boolean;
  aside?: ReactNode;
  /** The section's own id (an anchor to it); its title is `${id}-title`. */
  id?: string;
  /** The space between its parts, when it is not a card. */
  gap?: string;
  children?: ReactNode;
}) {
  const titleId = `${id ?? `section-${typeof title === "string" ? slug(title) : "part"}`}-title`;
  const frame = card ? "gap-3 rounded-xl border border-slate-200 bg-white p-4" : gap;
  return (
    <section id={id} aria-labelledby={titleId} className={`flex min-w-0 flex-col ${frame}`}>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={titleId} className="text-lg font-bold">
          {title}
        </h2>
        {aside}
      </div>
      {description && <p className="text-sm text-slate-600">{description}</p>}
      {children}
    </section>
  );
}

export type Column<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes of the column's cells (`break-all`, `font-mono`...). */
  className?: string;
  /** Right-aligned, header too: amounts. */
  numeric?: boolean;
  testId?: string;
};

/** A cell of a stacked table on a phone: its column's name (data-label) beside its value. */
const stackedTd =
  "max-sm:flex max-sm:gap-3 max-sm:border-0 max-sm:py-1 " +
  "max-sm:before:w-28 max-sm:before:shrink-0 max-sm:before:font-semibold max-sm:before:content-[attr(data-label)]";

/** The key of a row that is an API record: its id. */
export const byId = (row: { _id: string }) => row._id;

/**
 * A table of `rows` in `columns`, or `empty` when there are none (a sentence, or a row spanning the table). A
 * `stacked` table (its value is the frame's test id) is a table on a wide screen and, on a phone, each row a stack
 * of labelled values, so nothing runs off its frame; the others scroll sideways in theirs.
 */
export function RecordTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  emptyInTable = false,
  stacked,
}: {
  label: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty: string;
  emptyInTable?: boolean;
  stacked?: string;
}) {
  if (rows.length === 0 && !emptyInTable) return <p className="text-slate-600">{empty}</p>;
  const right = (column: Column<Row>) => (column.numeric ? (stacked ? " sm:text-right" : " text-right") : "");
  const header = (column: Column<Row>) => (typeof column.header === "string" ? column.header : undefined);
  const table = (
    <>
      <thead className={stacked && "max-sm:sr-only"}>
        <tr>
          {columns.map((column, index) => (
            <th key={index} className={th + (column.numeric ? " text-right" : "")}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody className={stacked && "max-sm:block"}>
        {rows.length === 0 && (
          <tr>
            <td className={td} colSpan={columns.length}>
              {empty}
            </td>
          </tr>
        )}
        {rows.map((row) => (
          <tr
            key={rowKey(row)}
            className={stacked && "max-sm:block max-sm:border-b max-sm:border-slate-100 max-sm:py-2"}
          >
            {columns.map((column, index) => (
              <td
                key={index}
                className={`${td}${right(column)} ${stacked ? stackedTd : ""} ${column.className ?? ""}`}
                data-label={stacked && header(column)}
                data-testid={column.testId}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </>
  );
  if (!stacked) return <AdminTable label={label}>{table}</AdminTable>;
  return (
    <div className="rounded-xl border border-slate-200 bg-white sm:max-w-full sm:overflow-x-auto" data-testid={stacked}>
      <table className="w-full text-left text-sm max-sm:block sm:min-w-[36rem]">
        <caption className="sr-only">{label}</caption>
        {table}
      </table>
    </div>
  );
}

export function BackLink({ to, children }: { to: string; children: ReactNode }) {
  return (
    <p>
      <Link to={to} className="font-semibold text-brand-700 underline">
        {children}
      </Link>
    </p>
  );
}

export function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800">
      {children}
    </p>
  );
}

/** Hidden inputs, one per entry. */
export function HiddenFields({ values = {} }: { values?: Record<string, string | undefined> }) {
  return Object.entries(values).map(([name, value]) =>
    value === undefined ? null : <input key={name} type="hidden" name={name} value={value} />,
  );
}

const dangerButtonClass = "rounded-lg border border-red-300 px-4 py-2 font-semibold text-red-800 hover:bg-red-50";

/** A form that is one plain button (move, delete, switch on): its answer is a toast after the redirect. */
export function CommandForm({
  intent,
  label,
  hidden,
  ariaLabel,
  small = false,
  danger = false,
}: {
  intent: string;
  label: string;
  hidden?: Record<string, string>;
  ariaLabel?: string;
  small?: boolean;
  danger?: boolean;
}) {
  const look = danger ? dangerButtonClass : secondaryButtonClass;
  return (
    <Form method="post">
      <HiddenFields values={hidden} />
      <button
        type="submit"
        name="intent"
        value={intent}
        aria-label={ariaLabel}
        className={small ? `${look} px-3 py-1 text-sm` : look}
      >
        {label}
      </button>
    </Form>
  );
}

/** The errors of a form's reply that are not about one field (a refusal of a button form, a 404). */
export function useFormRefusal(form: string): string[] | undefined {
  const errors = useFormReply(form)?.result.error;
  return errors ? Object.values(errors).flatMap((messages) => messages ?? []) : undefined;
}

/** A form that is only a submit button, whose refusal comes back beside it (the reply of form `intent`). */
export function ButtonForm({ intent, label, pendingText }: { intent: string; label: string; pendingText: string }) {
  const refusal = useFormRefusal(intent);
  return (
    <Form method="post" className="flex flex-col items-start gap-2">
      {refusal && <Alert>{refusal.join(" ")}</Alert>}
      <SubmitButton intent={intent} pendingText={pendingText}>
        {label}
      </SubmitButton>
    </Form>
  );
}
