import type { FieldMetadata, FormMetadata } from "@conform-to/react";
import { getFormProps } from "@conform-to/react";
import { Form, Link, useLocation } from "@remix-run/react";
import type { ReactNode } from "react";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { AdminTable, inputClass, secondaryButtonClass, td, th } from "./admin-ui";
import { Pager } from "~/components/pager";
import { pageHref } from "~/lib/list-query";

/*
 * The back office's one list (ADR 048): the search as a GET form (its state in the address, read by listQuery),
 * filter tabs, a table of columns or a list of cards, the empty state, the pager, and a bulk action as a plain
 * POST form whose checkboxes sit in the rows and join it through their `form` attribute. All of it works
 * without JavaScript; the table scrolls in its own frame on a phone.
 */

type Query = Record<string, string | number>;

/** A control of the search form: a text box (the default), a select with an "any" first choice, or a checkbox. */
export type ListFilter = { name: string; label: string } & (
  | { type?: "search" | "text" | "date"; placeholder?: string; maxLength?: number }
  | { choices: readonly (string | { value: string; label: string })[]; any: string }
  | { checkbox: string }
);

export type ListColumn<Row> = {
  header: ReactNode;
  cell: (row: Row) => ReactNode;
  /** Classes of the column's cells (`break-all`, `font-mono`...). */
  className?: string;
  /** Right-aligned, header too: amounts and counts. */
  numeric?: boolean;
};

/** Rows that can be ticked for the bulk form `form`: each sends `name=row._id`. */
export type ListSelect<Row> = { form: string; name: string; label: (row: Row) => string; when?: (row: Row) => boolean };

/** Links that set the parameter `name`: `options` maps each value to its label, in order. */
type Tabs = { name: string; label: string; options: Record<string, string> };

type AdminListProps<Row extends { _id: string }> = {
  /** The table's caption or the card list's name; the pager is "`label` pages". */
  label: string;
  pathname: string;
  /** The list's URL state, as listQuery read it. */
  query?: Query;
  /** The search form's controls, in order; none: no search form. */
  filters?: ListFilter[];
  /** The search form's button. */
  submit?: string;
  /** Links that switch one parameter of the address, the search kept. */
  tabs?: Tabs;
  /** Parameters the search form carries unseen (a customer's orders, one batch). */
  keep?: string[];
  /** The answer when nothing is listed: [with a search or filter, without]. */
  empty?: [string, string];
  list: { records: Row[]; pager?: Parameters<typeof Pager>[0]["pager"] & { total: number } };
  columns?: ListColumn<Row>[];
  /** Cards instead of table rows: the content of each row's item. */
  card?: (row: Row) => ReactNode;
  select?: ListSelect<Row>;
  /** The bulk form (BulkForm), after the rows. */
  bulk?: ReactNode;
  /** A refusal of the search itself (a bad date): shown instead of the list. */
  error?: string | null;
  /** Shown between the search and the list. */
  children?: ReactNode;
};

export function AdminList<Row extends { _id: string }>(props: AdminListProps<Row>) {
  const { label, pathname, query = {}, filters = [], tabs, keep = [], list, empty, error } = props;
  const searched = [...filters.map((filter) => filter.name), ...keep].some((name) => query[name]);
  return (
    <>
      {tabs && <ListTabs tabs={tabs} pathname={pathname} query={query} />}
      {filters.length > 0 && (
        <ListSearch
          id={pathname.split("/").at(-1) ?? "list"}
          filters={filters}
          query={query}
          carried={tabs ? [tabs.name, ...keep] : keep}
          submit={props.submit ?? "Search"}
        />
      )}
      {props.children}
      {error ? (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800">
          {error}
        </p>
      ) : list.records.length === 0 ? (
        empty && <p className="text-slate-600">{searched ? empty[0] : empty[1]}</p>
      ) : (
        <>
          {props.card ? <CardList label={label} records={list.records} card={props.card} /> : <Table {...props} />}
          {props.bulk}
        </>
      )}
      {!error && list.pager && (
        <Pager
          label={`${label} pages`}
          pager={list.pager}
          total={list.pager.total}
          keepScroll={false}
          href={(page) => pageHref(pathname, query, page)}
        />
      )}
    </>
  );
}

function Table<Row extends { _id: string }>({ label, list, columns = [], select }: AdminListProps<Row>) {
  return (
    <AdminTable label={label}>
      <thead>
        <tr>
          {select && (
            <th className={th}>
              <span className="sr-only">Choose</span>
            </th>
          )}
          {columns.map((column, index) => (
            <th key={index} className={column.numeric ? `${th} text-right` : th}>
              {column.header}
            </th>
          ))}
        </tr>
      </thead>
      <tbody>
        {list.records.map((row) => (
          <tr key={row._id}>
            {select && (
              <td className={td}>
                {(select.when?.(row) ?? true) && (
                  <input
                    type="checkbox"
                    form={select.form}
                    name={select.name}
                    value={row._id}
                    aria-label={select.label(row)}
                    className="h-4 w-4"
                  />
                )}
              </td>
            )}
            {columns.map((column, index) => (
              <td key={index} className={`${td} ${column.numeric ? "text-right" : ""} ${column.className ?? ""}`}>
                {column.cell(row)}
              </td>
            ))}
          </tr>
        ))}
      </tbody>
    </AdminTable>
  );
}

function CardList<Row extends { _id: string }>(props: {
  label: string;
  records: Row[];
  card: (row: Row) => ReactNode;
}) {
  return (
    <ul aria-label={props.label} className="flex flex-col gap-3">
      {props.records.map((row) => (
        <li key={row._id} className="flex flex-col gap-2 rounded-xl border border-slate-200 bg-white p-4">
          {props.card(row)}
        </li>
      ))}
    </ul>
  );
}

function ListTabs({ tabs, pathname, query }: { tabs: Tabs; pathname: string; query: Query }) {
  return (
    <nav aria-label={tabs.label} className="flex flex-wrap gap-2">
      {Object.entries(tabs.options).map(([value, label]) => (
        <Link
          key={value}
          to={pageHref(pathname, { ...query, [tabs.name]: value }, 1)}
          aria-current={value === query[tabs.name] ? "page" : undefined}
          className="rounded-full border border-slate-300 px-3 py-1 text-sm font-semibold aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
        >
          {label}
        </Link>
      ))}
    </nav>
  );
}

/** The search as a GET form: a lone search box sits beside its button, several controls make a grid. */
function ListSearch(props: { id: string; filters: ListFilter[]; query: Query; carried: string[]; submit: string }) {
  const { id, filters, query } = props;
  const layout =
    filters.length === 1
      ? "flex flex-col gap-2 sm:flex-row sm:items-end"
      : "grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end";
  return (
    <Form method="get" role="search" className={layout}>
      {props.carried.map((name) =>
        query[name] ? <input key={name} type="hidden" name={name} value={query[name]} /> : null,
      )}
      {filters.map((filter) =>
        "checkbox" in filter ? (
          <label key={filter.name} className="flex items-center gap-2 text-sm font-semibold">
            <input
              type="checkbox"
              name={filter.name}
              value={filter.checkbox}
              defaultChecked={query[filter.name] === filter.checkbox}
              className="size-4"
            />
            {filter.label}
          </label>
        ) : (
          <div key={filter.name} className="flex min-w-0 flex-1 flex-col gap-1">
            <label htmlFor={`${id}-${filter.name}`} className="text-sm font-semibold">
              {filter.label}
            </label>
            {"choices" in filter ? (
              <select
                id={`${id}-${filter.name}`}
                name={filter.name}
                defaultValue={query[filter.name]}
                className={inputClass}
              >
                <option value="">{filter.any}</option>
                {filter.choices.map((choice) => {
                  const { value, label } = typeof choice === "string" ? { value: choice, label: choice } : choice;
                  return (
                    <option key={value} value={value}>
                      {label}
                    </option>
                  );
                })}
              </select>
            ) : (
              <input
                id={`${id}-${filter.name}`}
                name={filter.name}
                type={filter.type ?? "search"}
                defaultValue={query[filter.name]}
                // A length limit is for typed text: not allowed on a date (HTML), whose value is always a date.
                maxLength={filter.type === "date" ? undefined : (filter.maxLength ?? 200)}
                placeholder={filter.placeholder}
                autoComplete="off"
                className={inputClass}
              />
            )}
          </div>
        ),
      )}
      <button type="submit" className={secondaryButtonClass}>
        {props.submit}
      </button>
    </Form>
  );
}

/**
 * The bulk action's POST form: the ticked rows' checkboxes belong to it by their `form` attribute, so it needs
 * no script. It posts to this address, so the answer comes back to the same page of the list, filters kept.
 */
export function BulkForm<Fields extends Record<string, unknown>>({
  form,
  field,
  intent,
  pendingText,
  children,
}: {
  form: FormMetadata<Fields, string[]>;
  field: Pick<FieldMetadata<unknown>, "errorId" | "errors">;
  intent: string;
  pendingText: string;
  children: ReactNode;
}) {
  const location = useLocation();
  return (
    <Form
      method="post"
      action={`${location.pathname}${location.search}`}
      {...getFormProps(form)}
      className="flex flex-col gap-2"
    >
      <FormErrors form={form} />
      <ErrorList id={field.errorId} errors={field.errors} />
      <div>
        <SubmitButton intent={intent} pendingText={pendingText}>
          {children}
        </SubmitButton>
      </div>
    </Form>
  );
}
