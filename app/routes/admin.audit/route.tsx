import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { type AuditEntry, listAudit, requireStaff } from "~/lib/admin.server";
import { listQuery, listText } from "~/lib/list-query";

export const meta: MetaFunction = () => [{ title: "Audit log | Back office" }];

const querySchema = z.object({ actor: listText(), action: listText(), objectType: listText(), object: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "audit");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, log: await listAudit(context, request, query) };
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
  const { query, log } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Audit log">
        Every change made by staff, newest first. Entries can never be edited or removed.
      </AdminHeading>
      <AdminList
        label="Audit log entries"
        pathname="/admin/audit"
        query={query}
        filters={[
          { name: "actor", label: "Staff member", type: "text", placeholder: "part of the email" },
          { name: "action", label: "Action", type: "text", placeholder: "e.g. stock, staff.role" },
          { name: "objectType", label: "Object type", type: "text", placeholder: "e.g. product, user" },
          { name: "object", label: "Object", type: "text", placeholder: "id or part of the name" },
        ]}
        submit="Filter"
        empty={["No entry matches these filters.", "Nothing has been changed yet."]}
        list={log}
        columns={[
          { header: "When", cell: (entry) => <AdminTime iso={entry.createdAt} /> },
          {
            header: "Who",
            className: "break-all",
            cell: (entry) => (
              <>
                {entry.actorEmail} <span className="text-slate-500">({entry.actorRole})</span>
              </>
            ),
          },
          { header: "Action", cell: (entry) => <code>{entry.action}</code> },
          {
            header: "Object",
            className: "break-all",
            cell: (entry) => `${entry.objectType}: ${entry.objectLabel || entry.objectId}`,
          },
          { header: "Change", cell: (entry) => <ChangeSummary changes={entry.changes} /> },
          { header: "Address", cell: (entry) => entry.ip },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
