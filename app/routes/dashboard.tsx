import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { orderTitle } from "~/components/account/order-title";
import { dashboardQuery } from "~/components/dashboard/dashboard-query";
import { orderHref, OrderListSection } from "~/components/dashboard/order-list";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { SpinBadge } from "~/components/slots/spin-badge";
import { formatUsd } from "~/lib/money";
import { type OrderListQuery, listMyOrders } from "~/lib/orders.server";
import { requireProfile } from "~/lib/session.server";
import { readSpinBalance } from "~/lib/slots.server";
import { TitledSection } from "~/components/titled-section";

export const meta: MetaFunction = () => [{ title: "Dashboard | Store" }];

/*
 * The customer's home: figures, the two latest completed orders and the order list. Filters, view and
 * page live in the URL and change through a GET form and links, so all of it works without JavaScript
 * and a reload keeps what was chosen.
 */

const QUICK_ACCESS_ORDERS = 2;

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
export default function DashboardPage() {
  const { profile, spinsAvailable, query, list, quickAccess } = useLoaderData<typeof loader>();
  const figures = [
    { label: "Balance", value: formatUsd(profile.balance), testId: "dashboard-balance" },
    { label: "Completed orders", value: String(profile.completedOrders), testId: "dashboard-completed" },
    { label: "Total spent", value: formatUsd(profile.spent), testId: "dashboard-spent" },
    { label: "Open tickets", value: String(profile.openTickets), testId: "dashboard-open-tickets" },
  ];
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
      <TitledSection id="quick-access" title="Quick access">
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
      </TitledSection>
      <OrderListSection query={query} list={list} />
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
