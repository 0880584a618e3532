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

/** A table of `rows` in `columns`, or `empty` when there are none (a sentence, or a row spanning the table). */
export function RecordTable<Row>({
  label,
  columns,
  rows,
  rowKey,
  empty,
  emptyInTable = false,
}: {
  label: string;
  columns: Column<Row>[];
  rows: readonly Row[];
  rowKey: (row: Row) => string;
  empty: string;
  emptyInTable?: boolean;
}) {
  if (rows.length === 0 && !emptyInTable) return <p className="text-slate-600">{empty}</p>;
  const right = (column: Column<Row>) => (column.numeric ? " text-right" : "");
  return (
    <AdminTable label={label}>
      <thead>
        <tr>
          {columns.map((column, index) => (
            <th key={index} className={th + right(column)}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {rows.length === 0 && (
          <tr>
            <td className={td} colSpan={columns.length}>
              {empty}
            </td>
          </tr>
        )}
        {rows.map((row) => (
          <tr key={rowKey(row)}>
            {columns.map((column, index) => (
              <td
                key={index}
                className={`${td}${right(column)} ${column.className ?? ""}`.trim()}
                data-testid={column.testId}
              >
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </AdminTable>
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
