import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { ORDER_FILTER_MAX_LENGTH, ORDER_PAYMENT_METHODS } from "../../../contract/admin-orders";
import { ORDER_STATUSES, ORDER_STATUS_LABELS } from "../../../contract/browser/order";
import { AdminList, type ListFilter } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type AdminOrderRow, searchOrders } from "./orders.server";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Orders | Back office" }];

// Dates and ids go to the API as typed: what it refuses shows above the list (an ApiResult, not a 500).
const text = listText(ORDER_FILTER_MAX_LENGTH);

const querySchema = z.object({
  order: text,
  email: text,
  product: text,
  status: listChoice(ORDER_STATUSES),
  gateway: listChoice(ORDER_PAYMENT_METHODS),
  from: text,
  to: text,
  customer: text,
  waiting: listChoice(["1"]),
});

const FILTERS: ListFilter[] = [
  { name: "order", label: "Order id", type: "text", placeholder: "the whole id" },
  { name: "email", label: "Email", type: "text", placeholder: "starts with" },
  { name: "product", label: "Product", type: "text", placeholder: "part of the title" },
  {
    name: "status",
    label: "Status",
    any: "Any status",
    choices: ORDER_STATUSES.map((status) => ({ value: status, label: ORDER_STATUS_LABELS[status] })),
  },
  { name: "gateway", label: "Paid with", any: "Any way", choices: ORDER_PAYMENT_METHODS },
  { name: "from", label: "From (UTC)", type: "date" },
  { name: "to", label: "To (UTC)", type: "date" },
  { name: "waiting", label: "Waiting for manual delivery", checkbox: "1" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "ordersRead");
  const query = listQuery(new URL(request.url), querySchema);
  const answer = await searchOrders(context, request, query);
  return { query, orders: answer.ok ? answer.payload : { records: [] }, error: answer.ok ? null : answer.message };
}

function StatusCell({ order }: { order: AdminOrderRow }) {
  return (
    <>
      {ORDER_STATUS_LABELS[order.status]}
      {order.waitingForDelivery && (
        <span className="ml-1 rounded-full bg-amber-100 px-2 py-0.5 text-xs font-semibold text-amber-900">
          to deliver
        </span>
      )}
    </>
  );
}

export default function OrdersPage() {
  const { query, orders, error } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Orders">
        Newest first. Open an order to deliver, confirm, refund, resend or cancel.
      </AdminHeading>
      <AdminList
        label="Orders"
        pathname="/admin/orders"
        query={query}
        filters={FILTERS}
        keep={["customer"]}
        error={error}
        empty={["No order matches this search.", "No orders yet."]}
        list={orders}
        columns={[
          { header: "Placed", cell: (order) => <AdminTime iso={order.createdAt} /> },
          {
            header: "Order",
            cell: (order) => (
              <Link to={`/admin/orders/${order._id}`} className="font-mono font-semibold text-brand-700 underline">
                {order._id.slice(0, 8)}
              </Link>
            ),
          },
          { header: "Email", className: "break-all", cell: (order) => order.email },
          { header: "Items", cell: (order) => order.items },
          { header: "Status", cell: (order) => <StatusCell order={order} /> },
          { header: "Paid with", cell: (order) => order.paymentMethod },
          { header: "Total", numeric: true, cell: (order) => formatUsd(order.price) },
        ]}
      >
        {query.customer && (
          <p className="text-sm text-slate-600">
            Orders of one customer.{" "}
            <Link to="/admin/orders" className="font-semibold text-brand-700 underline">
              All orders
            </Link>
          </p>
        )}
      </AdminList>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
