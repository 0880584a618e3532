import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import { ORDER_FILTER_MAX_LENGTH, ORDER_PAYMENT_METHODS } from "../../contract/admin-orders";
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from "../../contract/browser/order";
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
import { type OrderFilters, searchOrders } from "~/lib/admin-orders.server";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Orders | Back office" }];

const FILTER_NAMES = ["order", "email", "product", "status", "gateway", "from", "to", "customer", "waiting"] as const;

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "ordersRead");
  const url = new URL(request.url);
  const filters = Object.fromEntries(
    FILTER_NAMES.map((name) => [name, (url.searchParams.get(name) ?? "").trim().slice(0, ORDER_FILTER_MAX_LENGTH)]),
  ) as OrderFilters;
  const answer = await searchOrders(context, request, { ...filters, page: pageFrom(url) });
  return {
    filters,
    orders: answer.ok ? answer.payload : null,
    error: answer.ok ? null : answer.message,
  };
}

function TextFilter({
  name,
  label,
  value,
  type = "text",
  placeholder,
}: {
  name: keyof OrderFilters;
  label: string;
  value: string;
  type?: "text" | "date";
  placeholder?: string;
}) {
  return (
    <div className="flex min-w-0 flex-col gap-1">
      <label htmlFor={`orders-${name}`} className="text-sm font-semibold">
        {label}
      </label>
      <input
        id={`orders-${name}`}
        name={name}
        type={type}
        defaultValue={value}
        maxLength={ORDER_FILTER_MAX_LENGTH}
        placeholder={placeholder}
        className={inputClass}
      />
    </div>
  );
}

function SearchForm({ filters }: { filters: OrderFilters }) {
  return (
    <Form method="get" className="grid grid-cols-1 gap-3 sm:grid-cols-2 lg:grid-cols-4 lg:items-end">
      <TextFilter name="order" label="Order id" value={filters.order} placeholder="the whole id" />
      <TextFilter name="email" label="Email" value={filters.email} placeholder="starts with" />
      <TextFilter name="product" label="Product" value={filters.product} placeholder="part of the title" />
      <div className="flex flex-col gap-1">
        <label htmlFor="orders-status" className="text-sm font-semibold">
          Status
        </label>
        <select id="orders-status" name="status" defaultValue={filters.status} className={inputClass}>
          <option value="">Any status</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {ORDER_STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </div>
      <div className="flex flex-col gap-1">
        <label htmlFor="orders-gateway" className="text-sm font-semibold">
          Paid with
        </label>
        <select id="orders-gateway" name="gateway" defaultValue={filters.gateway} className={inputClass}>
          <option value="">Any way</option>
          {ORDER_PAYMENT_METHODS.map((method) => (
            <option key={method} value={method}>
              {method}
            </option>
          ))}
        </select>
      </div>
      <TextFilter name="from" label="From (UTC)" value={filters.from} type="date" />
      <TextFilter name="to" label="To (UTC)" value={filters.to} type="date" />
      {filters.customer && <input type="hidden" name="customer" value={filters.customer} />}
      <label className="flex items-center gap-2 text-sm font-semibold">
        <input type="checkbox" name="waiting" value="1" defaultChecked={filters.waiting === "1"} className="size-4" />
        Waiting for manual delivery
      </label>
      <button type="submit" className={secondaryButtonClass}>
        Search
      </button>
    </Form>
  );
}

export default function OrdersPage() {
  const { filters, orders, error } = useLoaderData<typeof loader>();
  const filtered = Object.values(filters).some(Boolean);
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Orders">
        Newest first. Open an order to deliver, confirm, refund, resend or cancel.
      </AdminHeading>
      <SearchForm filters={filters} />
      {filters.customer && (
        <p className="text-sm text-slate-600">
          Orders of one customer.{" "}
          <Link to="/admin/orders" className="font-semibold text-brand-700 underline">
            All orders
          </Link>
        </p>
      )}
      {error && (
        <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800">
          {error}
        </p>
      )}
      {orders && orders.records.length === 0 && (
        <p className="text-slate-600">{filtered ? "No order matches this search." : "No orders yet."}</p>
      )}
      {orders && orders.records.length > 0 && (
        <AdminTable label="Orders">
          <thead>
            <tr>
              <th className={th}>Placed</th>
              <th className={th}>Order</th>
              <th className={th}>Email</th>
              <th className={th}>Items</th>
              <th className={th}>Status</th>
              <th className={th}>Paid with</th>
              <th className={`${th} text-right`}>Total</th>
            </tr>
          </thead>
          <tbody>
            {orders.records.map((order) => (
              <tr key={order._id}>
                <td className={td}>
                  <AdminTime iso={order.createdAt} />
                </td>
                <td className={td}>
                  <Link to={`/admin/orders/${order._id}`} className="font-mono font-semibold text-brand-700 underline">
                    {order._id.slice(0, 8)}
                  </Link>
                </td>
                <td className={`${td} break-all`}>{order.email}</td>
                <td className={td}>{order.items}</td>
                <td className={td}>
                  {ORDER_STATUS_LABELS[order.status]}
                  {order.waitingForDelivery && (
                    <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
                      to deliver
                    </span>
                  )}
                </td>
                <td className={td}>{order.paymentMethod}</td>
                <td className={`${td} text-right`}>{formatUsd(order.price)}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      {orders && (
        <Pager label="Order pages" pager={orders.pager} href={(page) => pageHref("/admin/orders", filters, page)} />
      )}
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
