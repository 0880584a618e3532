import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData, useLocation, useNavigation, useSubmit } from "@remix-run/react";
import { ORDER_STATUSES, type OrderStatus } from "../../contract/browser/order";
import { orderTitle } from "~/components/account/order-title";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { SpinBadge } from "~/components/slots/spin-badge";
import { formatUsd } from "~/lib/money";
import { type Order, type OrderListQuery, listMyOrders } from "~/lib/orders.server";
import { requireProfile } from "~/lib/session.server";
import { readSpinBalance } from "~/lib/slots.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | Store" }];

/*
 * The customer's home: figures, the two latest completed orders and the order list. Filters, view and
 * page live in the URL and change through a GET form and links, so all of it works without JavaScript
 * and a reload keeps what was chosen.
 */

/** The list's words for each status: short, as "No {status} orders found." reads them (spec section 8). */
const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  partiallyComplete: "Partially complete",
  expired: "Expired",
  cancelled: "Cancelled",
};
const ALL_STATUSES = "all";
const SORTS = { createdAt: "Newest first", price: "Highest price first" } as const;
const QUICK_ACCESS_ORDERS = 2;

type OrderListView = "cards" | "table";
type DashboardQuery = OrderListQuery & { view: OrderListView };

/** The list's query from the URL; a value that is not one of the choices reads as its default. */
function dashboardQuery(url: URL): DashboardQuery {
  const params = url.searchParams;
  const status = params.get("status");
  const page = Number(params.get("page"));
  return {
    // Spec section 4: the list starts on completed orders; "all" lifts the filter.
    status:
      status === ALL_STATUSES ? undefined : (ORDER_STATUSES.find((candidate) => candidate === status) ?? "completed"),
    search: (params.get("search") ?? "").trim().slice(0, 200),
    sortBy: params.get("sortBy") === "price" ? "price" : "createdAt",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    view: params.get("view") === "table" ? "table" : "cards",
  };
}

/** A dashboard URL with `changes` applied to the current query, defaults left out. */
function dashboardHref(query: DashboardQuery, changes: Partial<DashboardQuery>): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.status !== "completed") params.set("status", next.status ?? ALL_STATUSES);
  if (next.search) params.set("search", next.search);
  if (next.sortBy !== "createdAt") params.set("sortBy", next.sortBy);
  if (next.view !== "cards") params.set("view", next.view);
  if (next.page !== 1) params.set("page", String(next.page));
  const search = params.toString();
  return search ? `/dashboard?${search}` : "/dashboard";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  const profile = await requireProfile(request, context);
  const query = dashboardQuery(new URL(request.url));
  const { view: _view, ...listQuery } = query;
  const latestCompleted: OrderListQuery = { status: "completed", search: "", sortBy: "createdAt", page: 1 };
  const sameAsList = JSON.stringify(listQuery) === JSON.stringify(latestCompleted);
  const [list, latest, spins] = await Promise.all([
    listMyOrders(context, request, listQuery),
    sameAsList ? undefined : listMyOrders(context, request, latestCompleted),
    readSpinBalance(context, request),
  ]);
  return {
    profile,
    spinsAvailable: spins.spinsAvailable,
    query,
    list,
    quickAccess: (latest ?? list).records.slice(0, QUICK_ACCESS_ORDERS),
  };
}

const memberSince = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});
const orderDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

function orderHref(order: Order): string {
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

function OrderTable({ orders }: { orders: Order[] }) {
  return (
    // The table keeps its columns on a phone and scrolls inside its own box.
    <div className="overflow-x-auto rounded-xl border border-slate-200 bg-white" data-testid="order-table-box">
      <table className="w-full min-w-[36rem] text-left text-sm" data-testid="order-table">
        <thead className="bg-slate-50 text-slate-600">
          <tr>
            <th className="px-4 py-2">Order</th>
            <th className="px-4 py-2">Products</th>
            <th className="px-4 py-2">Date</th>
            <th className="px-4 py-2">Status</th>
            <th className="px-4 py-2 text-right">Price</th>
          </tr>
        </thead>
        <tbody>
          {orders.map((order) => (
            <tr key={order._id} className="border-t border-slate-100">
              <td className="px-4 py-2 font-mono text-xs">
                <Link to={orderHref(order)} className="text-brand-700 underline" data-testid="order-link">
                  {order._id.slice(0, 8)}…
                </Link>
              </td>
              <td className="px-4 py-2">{orderTitle(order)}</td>
              <td className="px-4 py-2 whitespace-nowrap">{orderDate.format(new Date(order.createdAt))}</td>
              <td className="px-4 py-2">
                <StatusBadge status={order.status} />
              </td>
              <td className="px-4 py-2 text-right">{formatUsd(order.price)}</td>
            </tr>
          ))}
        </tbody>
      </table>
    </div>
  );
}

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
      <label className="flex min-w-0 flex-1 flex-col gap-1 text-sm font-semibold">
        Search
        <input
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

export default function DashboardPage() {
  const { profile, spinsAvailable, query, list, quickAccess } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const location = useLocation();
  const loadingList = navigation.state === "loading" && navigation.location.pathname === location.pathname;
  const figures = [
    { label: "Balance", value: formatUsd(profile.balance), testId: "dashboard-balance" },
    { label: "Completed orders", value: String(profile.completedOrders), testId: "dashboard-completed" },
    { label: "Total spent", value: formatUsd(profile.spent), testId: "dashboard-spent" },
    { label: "Open tickets", value: String(profile.openTickets), testId: "dashboard-open-tickets" },
  ];
  const { pager } = list;
  const emptyMessage = query.status
    ? `No ${STATUS_LABELS[query.status].toLowerCase()} orders found.`
    : "No orders found.";
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <header className="flex items-start justify-between gap-4">
        <div className="min-w-0">
          <h1 className="text-3xl font-bold break-words">Hello, {profile.username}!</h1>
          <p className="break-words text-slate-600">
            Signed in as {profile.email} · member since {memberSince.format(new Date(profile.created))}
          </p>
        </div>
        <SpinBadge spinsAvailable={spinsAvailable} />
      </header>
      <dl className="grid grid-cols-2 gap-4 lg:grid-cols-4">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <dt className="text-sm font-medium text-slate-600">{figure.label}</dt>
            <dd className="text-2xl font-bold" data-testid={figure.testId}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
      <section aria-labelledby="quick-access-title" className="flex flex-col gap-3">
        <h2 id="quick-access-title" className="text-xl font-semibold">
          Quick access
        </h2>
        {quickAccess.length === 0 ? (
          <p className="text-slate-600">
            No completed orders yet.{" "}
            <Link to="/shop" className="text-brand-700 underline">
              Go to the shop
            </Link>
          </p>
        ) : (
          <ul className="grid gap-3 sm:grid-cols-2" data-testid="quick-access">
            {quickAccess.map((order) => (
              <li key={order._id}>
                <Link
                  to={orderHref(order)}
                  className="flex items-center justify-between gap-2 rounded-xl border border-slate-200 bg-white p-4 shadow-sm hover:border-brand-600"
                >
                  <span className="min-w-0 truncate font-semibold">{orderTitle(order)}</span>
                  <span className="shrink-0 text-sm text-slate-600">{formatUsd(order.price)}</span>
                </Link>
              </li>
            ))}
          </ul>
        )}
      </section>
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
        <OrderFilters key={location.search} query={query} />
        <div aria-busy={loadingList} className="transition-opacity aria-busy:opacity-50" data-testid="order-list">
          {list.records.length === 0 ? (
            <p className="rounded-xl border border-dashed border-slate-300 p-6 text-center text-slate-600">
              {emptyMessage}
            </p>
          ) : query.view === "table" ? (
            <OrderTable orders={list.records} />
          ) : (
            <OrderCards orders={list.records} />
          )}
        </div>
        {pager.pages > 1 && (
          <nav aria-label="Order pages" className="flex items-center justify-center gap-4">
            {pager.previous ? (
              <Link to={dashboardHref(query, { page: pager.previous })} preventScrollReset className="underline">
                Previous
              </Link>
            ) : null}
            <span aria-current="page" data-testid="order-page">
              Page {pager.page} of {pager.pages}
            </span>
            {pager.next ? (
              <Link to={dashboardHref(query, { page: pager.next })} preventScrollReset className="underline">
                Next
              </Link>
            ) : null}
          </nav>
        )}
      </section>
      <nav aria-label="Quick links" className="flex flex-wrap gap-3">
        <Link to="/shop" className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
          Go to the shop
        </Link>
        <Link to="/balance" className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-100">
          Balance
        </Link>
        <Link
          to="/settings"
          className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-100"
        >
          Settings
        </Link>
      </nav>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
