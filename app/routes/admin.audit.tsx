import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
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
import { GeneralErrorBoundary } from "~/components/error-screens";
import { type AuditEntry, type AuditFilters, listAudit, requireStaff } from "~/lib/admin.server";

export const meta: MetaFunction = () => [{ title: "Audit log | Back office" }];

const FILTERS: { name: keyof AuditFilters; label: string; placeholder: string }[] = [
  { name: "actor", label: "Staff member", placeholder: "part of the email" },
  { name: "action", label: "Action", placeholder: "e.g. stock, staff.role" },
  { name: "objectType", label: "Object type", placeholder: "e.g. product, user" },
  { name: "object", label: "Object", placeholder: "id or part of the name" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "audit");
  const url = new URL(request.url);
  const filters = Object.fromEntries(
    FILTERS.map(({ name }) => [name, (url.searchParams.get(name) ?? "").trim().slice(0, 200)]),
  ) as AuditFilters;
  return { filters, log: await listAudit(context, request, { ...filters, page: pageFrom(url) }) };
}

/** `field: before → after` for each changed field. */
function ChangeSummary({ changes }: { changes: AuditEntry["changes"] }) {
  const keys = [...new Set([...Object.keys(changes.before ?? {}), ...Object.keys(changes.after ?? {})])];
  const shown = (value: unknown) => (value === null || value === undefined ? "—" : JSON.stringify(value));
  return (
    <ul className="flex flex-col gap-0.5">
      {keys.map((key) => (
        <li key={key} className="break-all">
          <span className="font-semibold">{key}</span>: {changes.before ? shown(changes.before[key]) : "(new)"} →{" "}
          {changes.after ? shown(changes.after[key]) : "(removed)"}
        </li>
      ))}
    </ul>
  );
}

export default function AuditPage() {
  const { filters, log } = useLoaderData<typeof loader>();
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Audit log">
        Every change made by staff, newest first. Entries can never be edited or removed.
      </AdminHeading>
      <Form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-5 lg:items-end">
        {FILTERS.map((filter) => (
          <div key={filter.name} className="flex flex-col gap-1">
            <label htmlFor={`audit-${filter.name}`} className="text-sm font-semibold">
              {filter.label}
            </label>
            <input
              id={`audit-${filter.name}`}
              name={filter.name}
              defaultValue={filters[filter.name]}
              maxLength={200}
              placeholder={filter.placeholder}
              className={inputClass}
            />
          </div>
        ))}
        <button type="submit" className={secondaryButtonClass}>
          Filter
        </button>
      </Form>
      {log.records.length === 0 ? (
        <p className="text-slate-600">
          {filtered ? "No entry matches these filters." : "Nothing has been changed yet."}
        </p>
      ) : (
        <AdminTable label="Audit log entries">
          <thead>
            <tr>
              <th className={th}>When</th>
              <th className={th}>Who</th>
              <th className={th}>Action</th>
              <th className={th}>Object</th>
              <th className={th}>Change</th>
              <th className={th}>Address</th>
            </tr>
          </thead>
          <tbody>
            {log.records.map((entry) => (
              <tr key={entry._id}>
                <td className={td}>
                  <AdminTime iso={entry.createdAt} />
                </td>
                <td className={`${td} break-all`}>
                  {entry.actorEmail} <span className="text-slate-500">({entry.actorRole})</span>
                </td>
                <td className={td}>
                  <code>{entry.action}</code>
                </td>
                <td className={`${td} break-all`}>
                  {entry.objectType}: {entry.objectLabel || entry.objectId}
                </td>
                <td className={td}>
                  <ChangeSummary changes={entry.changes} />
                </td>
                <td className={td}>{entry.ip}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager label="Audit log pages" pager={log.pager} href={(page) => pageHref("/admin/audit", filters, page)} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
