import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ROLE_LABELS } from "../../contract/staff";
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
import { requireStaff } from "~/lib/admin.server";
import { listCustomers } from "~/lib/admin-customers.server";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Customers | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "customersRead");
  const url = new URL(request.url);
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  return { search, list: await listCustomers(context, request, { search, page: pageFrom(url) }) };
}

export default function CustomersPage() {
  const { search, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Customers">
        Every account, newest first. Open one for its orders, tickets and balance ledger.
      </AdminHeading>
      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="customer-search" className="text-sm font-semibold">
            Search customers
          </label>
          <input
            id="customer-search"
            name="search"
            type="search"
            defaultValue={search}
            maxLength={200}
            placeholder="email, username or an order id"
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>
      {list.records.length === 0 ? (
        <p className="text-slate-600">{search ? "No customer matches this search." : "No accounts yet."}</p>
      ) : (
        <AdminTable label="Customers">
          <thead>
            <tr>
              <th className={th}>Customer</th>
              <th className={`${th} text-right`}>Balance</th>
              <th className={`${th} text-right`}>Orders</th>
              <th className={th}>Joined</th>
              <th className={th}>Status</th>
            </tr>
          </thead>
          <tbody>
            {list.records.map((customer) => (
              <tr key={customer._id}>
                <td className={`${td} break-all`}>
                  <Link to={`/admin/customers/${customer._id}`} className="font-semibold text-brand-700 underline">
                    {customer.email}
                  </Link>
                  <span className="block text-slate-600">
                    {customer.username}
                    {customer.role !== "customer" && ` · ${ROLE_LABELS[customer.role]}`}
                  </span>
                </td>
                <td className={`${td} text-right`}>{formatUsd(customer.balance)}</td>
                <td className={`${td} text-right`}>{customer.orders}</td>
                <td className={td}>
                  <AdminTime iso={customer.joined} />
                </td>
                <td className={td}>
                  {customer.blocked ? (
                    <span className="rounded-full bg-red-100 px-2 py-0.5 text-xs font-semibold text-red-800">
                      Blocked
                    </span>
                  ) : (
                    "Active"
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager
        label="Customer pages"
        pager={list.pager}
        href={(page) => pageHref("/admin/customers", { search }, page)}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
