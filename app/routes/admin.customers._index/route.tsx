import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ROLE_LABELS } from "../../../contract/staff";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type CustomerSummary, listCustomers } from "./customers.server";
import { listQuery, listText } from "~/lib/list-query";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Customers | Back office" }];

const querySchema = z.object({ search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "customersRead");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, list: await listCustomers(context, request, query) };
}

function CustomerCell({ customer }: { customer: CustomerSummary }) {
  return (
    <>
      <Link to={`/admin/customers/${customer._id}`} className="font-semibold text-brand-700 underline">
        {customer.email}
      </Link>
      <span className="block text-slate-600">
        {customer.username}
        {customer.role !== "customer" && ` · ${ROLE_LABELS[customer.role]}`}
      </span>
    </>
  );
}

const blocked = <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">Blocked</span>;

export default function CustomersPage() {
  const { query, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Customers">
        Every account, newest first. Open one for its orders, tickets and balance ledger.
      </AdminHeading>
      <AdminList
        label="Customers"
        pathname="/admin/customers"
        query={query}
        filters={[{ name: "search", label: "Search customers", placeholder: "email, username or an order id" }]}
        empty={["No customer matches this search.", "No accounts yet."]}
        list={list}
        columns={[
          { header: "Customer", className: "break-all", cell: (customer) => <CustomerCell customer={customer} /> },
          { header: "Balance", numeric: true, cell: (customer) => formatUsd(customer.balance) },
          { header: "Orders", numeric: true, cell: (customer) => customer.orders },
          { header: "Joined", cell: (customer) => <AdminTime iso={customer.joined} /> },
          { header: "Status", cell: (customer) => (customer.blocked ? blocked : "Active") },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
