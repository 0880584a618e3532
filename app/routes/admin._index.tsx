import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { readOverview, requireStaff } from "~/lib/admin.server";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return { me, overview: await readOverview(context, request) };
}

export default function AdminOverview() {
  const { me, overview } = useLoaderData<typeof loader>();
  const tiles = [
    { label: "Open tickets", value: overview.waiting.openTickets },
    { label: "Pending requests", value: overview.waiting.pendingRequests },
  ];
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Overview">Signed in as {me.username}. What is waiting for staff:</AdminHeading>
      <dl className="grid grid-cols-2 gap-3 sm:grid-cols-4">
        {tiles.map((tile) => (
          <div key={tile.label} className="rounded-xl border border-slate-200 bg-white p-4">
            <dt className="text-sm text-slate-600">{tile.label}</dt>
            <dd className="text-2xl font-bold">{tile.value}</dd>
          </div>
        ))}
      </dl>
      {me.areas.includes("audit") && (
        <p>
          Every change made here is recorded in the{" "}
          <Link to="/admin/audit" className="font-semibold text-brand-700 underline">
            audit log
          </Link>
          .
        </p>
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
