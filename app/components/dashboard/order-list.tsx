import { Form, Link, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { ORDER_STATUSES, type OrderStatus } from "../../../contract/browser/order";
import { orderTitle } from "~/components/account/order-title";
import { formatUsd } from "~/lib/money";
import type { Order, OrderPage } from "~/lib/orders.server";
import { ALL_STATUSES, type DashboardQuery, dashboardHref, SORTS, STATUS_LABELS } from "./dashboard-query";
import { Pager } from "../pager";
import { DataTable, type TableColumn } from "../data-table";

const orderDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export function orderHref(order: Order): string {
  return `/find-order?${new URLSearchParams({ id: order._id })}`;
}

function StatusBadge({ status }: { status: OrderStatus }) {
  const tone =
    status === "completed"
      ? "bg-green-100 text-green-800"
      : status === "pending"
        ? "bg-amber-100 text-amber-800"
        : status === "processing"
          ? "bg-brand-50 text-brand-700"
          : "bg-slate-100 text-slate-700";
  return <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>{STATUS_LABELS[status]}</span>;
}

function OrderCards({ orders }: { orders: Order[] }) {
  return (
    <ul className="grid gap-4 sm:grid-cols-2" data-testid="order-cards">
      {orders.map((order) => (
        <li key={order._id} className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <Link to={orderHref(order)} className="flex flex-col gap-2" data-testid="order-link">
            <span className="flex items-start justify-between gap-2">
              <span className="font-semibold break-words">{orderTitle(order)}</span>
              <StatusBadge status={order.status} />
            </span>
            <span className="text-sm text-slate-600">
              {orderDate.format(new Date(order.createdAt))} · {formatUsd(order.price)}
            </span>
            <span className="truncate font-mono text-xs text-slate-500">{order._id}</span>
          </Link>
        </li>
      ))}
    </ul>
  );
}

const ORDER_COLUMNS: TableColumn<Order>[] = [
  {
    header: "Order",
    className: "font-mono text-xs",
    cell: (order) => (
      <Link to={orderHref(order)} className="text-brand-700 underline" data-testid="order-link">
        {order._id.slice(0, 8)}…
      </Link>
    ),
  },
  { header: "Products", cell: orderTitle },
  { header: "Date", className: "whitespace-nowrap", cell: (order) => orderDate.format(new Date(order.createdAt)) },
  { header: "Status", cell: (order) => <StatusBadge status={order.status} /> },
  { header: "Price", align: "right", cell: (order) => formatUsd(order.price) },
];

function OrderFilters({ query }: { query: DashboardQuery }) {
  const submit = useSubmit();
  return (
    <Form
      method="get"
      action="/dashboard"
      preventScrollReset
      className="flex flex-wrap items-end gap-3"
      // With JS a changed choice applies at once; without it the Apply button sends the form.
      onChange={(event) => {
        const form = event.currentTarget;
        if ((event.target as HTMLElement).tagName === "SELECT") submit(form, { preventScrollReset: true });
      }}
    >
      <input type="hidden" name="view" value={query.view} />
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Status
        <select
          key={query.status}
          name="status"
          defaultValue={query.status ?? ALL_STATUSES}
          className="rounded-md border border-slate-300 px-3 py-2 font-normal"
        >
          <option value={ALL_STATUSES}>All statuses</option>
          {ORDER_STATUSES.map((status) => (
            <option key={status} value={status}>
              {STATUS_LABELS[status]}
            </option>
          ))}
        </select>
      </label>
      {/* At least 12rem: on a phone the box takes a row of its own rather than shrinking under its label. */}
      <label className="flex min-w-48 flex-1 flex-col gap-1 text-sm font-semibold">
        Search
        <input
          key={query.search}
          type="search"
          name="search"
          defaultValue={query.search}
          maxLength={200}
          placeholder="Order id or product"
          className="min-w-0 rounded-md border border-slate-300 px-3 py-2 font-normal"
        />
      </label>
      <label className="flex flex-col gap-1 text-sm font-semibold">
        Sort
        <select
          key={query.sortBy}
          name="sortBy"
          defaultValue={query.sortBy}
          className="rounded-md border border-slate-300 px-3 py-2 font-normal"
        >
          {Object.entries(SORTS).map(([value, label]) => (
            <option key={value} value={value}>
              {label}
            </option>
          ))}
        </select>
      </label>
      <button type="submit" className="rounded-lg border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-100">
        Apply
      </button>
    </Form>
  );
}

/** The order list: cards or a table, its filters and its pager, all in the URL. */
export function OrderListSection({ query, list }: { query: DashboardQuery; list: OrderPage }) {
  const navigation = useNavigation();
  const location = useLocation();
  const loadingList = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const { pager } = list;
  const emptyMessage = query.status
    ? `No ${STATUS_LABELS[query.status].toLowerCase()} orders found.`
    : "No orders found.";
  return (
    <section aria-labelledby="orders-title" className="flex flex-col gap-4">
      <div className="flex flex-wrap items-center justify-between gap-3">
        <h2 id="orders-title" className="text-xl font-semibold">
          Orders
        </h2>
        <nav aria-label="Order list view" className="flex gap-2 text-sm">
          {(["cards", "table"] as const).map((view) => (
            <Link
              key={view}
              to={dashboardHref(query, { view })}
              preventScrollReset
              aria-current={query.view === view ? "true" : undefined}
              className="rounded-md border border-slate-300 px-3 py-1.5 font-semibold aria-[current=true]:bg-slate-900 aria-[current=true]:text-white"
            >
              {view === "cards" ? "Cards" : "Table"}
            </Link>
          ))}
        </nav>
      </div>
      {/* Each field is reset only when the URL changes its own value: a Status change that is still loading must
          not take away what was typed into Search meanwhile (issue 38). */}
      <OrderFilters query={query} />
      <div aria-busy={loadingList} className="transition-opacity aria-busy:opacity-50" data-testid="order-list">
        {list.records.length === 0 ? (
          <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
            {emptyMessage}
          </p>
        ) : query.view === "table" ? (
          <DataTable
            rows={list.records}
            columns={ORDER_COLUMNS}
            minWidth="min-w-[36rem]"
            testId="order-table"
            boxTestId="order-table-box"
          />
        ) : (
          <OrderCards orders={list.records} />
        )}
      </div>
      <Pager label="Order pages" pager={pager} href={(page) => dashboardHref(query, { page })} testId="order-page" />
    </section>
  );
}
