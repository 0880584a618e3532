import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminHeading, AdminTable, td, th } from "~/components/admin/admin-ui";
import { OrdersChart } from "~/components/admin/orders-chart";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { readOverview, requireStaff } from "~/lib/admin.server";
import { formatUsd } from "~/lib/money";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return { me, overview: await readOverview(context, request) };
}

const usd = (cents: number) => formatUsd(cents / 100);

function Tile({ label, value, detail, href }: { label: string; value: string; detail?: string; href?: string }) {
  return (
    <div className="rounded-xl border border-slate-200 bg-white p-4">
      <dt className="text-sm text-slate-600">
        {href ? (
          <Link to={href} className="underline">
            {label}
          </Link>
        ) : (
          label
        )}
      </dt>
      <dd className="text-2xl font-bold">{value}</dd>
      {detail && <dd className="text-sm text-slate-600">{detail}</dd>}
    </div>
  );
}

export default function AdminOverview() {
  const { me, overview } = useLoaderData<typeof loader>();
  const { sales, waiting } = overview;
  const reaches = (area: string) => me.areas.includes(area as never);
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Overview">Signed in as {me.username}.</AdminHeading>
      <section aria-labelledby="waiting-title" className="flex flex-col gap-2">
        <h2 id="waiting-title" className="text-lg font-bold">
          Waiting for staff
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Tile
            label="Tickets waiting"
            value={String(waiting.ticketsWaiting)}
            href={reaches("support") ? "/admin/tickets" : undefined}
          />
          <Tile
            label="Pending requests"
            value={String(waiting.pendingRequests)}
            href={reaches("support") ? "/admin/requests" : undefined}
          />
          <Tile
            label="Orders to deliver by hand"
            value={String(waiting.manualDeliveries)}
            href={reaches("ordersRead") ? "/admin/orders?waiting=1" : undefined}
          />
        </dl>
      </section>
      <section aria-labelledby="sales-title" className="flex flex-col gap-2">
        <h2 id="sales-title" className="text-lg font-bold">
          Sales
        </h2>
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          <Tile label="Today (UTC)" value={usd(sales.today.revenueCents)} detail={`${sales.today.orders} orders`} />
          <Tile
            label="Last 7 days"
            value={usd(sales.last7Days.revenueCents)}
            detail={`${sales.last7Days.orders} orders`}
          />
          <Tile
            label="Last 30 days"
            value={usd(sales.last30Days.revenueCents)}
            detail={`${sales.last30Days.orders} orders`}
          />
        </dl>
        <OrdersChart days={overview.perDay} />
      </section>
      <section aria-labelledby="top-title" className="flex flex-col gap-2">
        <h2 id="top-title" className="text-lg font-bold">
          Best sellers, last 30 days
        </h2>
        {overview.topProducts.length === 0 ? (
          <p className="text-slate-600">No sales in the last 30 days.</p>
        ) : (
          <AdminTable label="Best sellers">
            <thead>
              <tr>
                <th className={th}>Product</th>
                <th className={th}>Sold</th>
                <th className={th}>Revenue</th>
              </tr>
            </thead>
            <tbody>
              {overview.topProducts.map((product) => (
                <tr key={product._id}>
                  <td className={`${td} break-words`}>{product.title}</td>
                  <td className={td}>{product.quantity}</td>
                  <td className={td}>{usd(product.revenueCents)}</td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        )}
      </section>
      <section aria-labelledby="low-title" className="flex flex-col gap-2">
        <h2 id="low-title" className="text-lg font-bold">
          Low stock
        </h2>
        {overview.lowStock.length === 0 ? (
          <p className="text-slate-600">No option is under its low-stock threshold.</p>
        ) : (
          <AdminTable label="Low stock">
            <thead>
              <tr>
                <th className={th}>Option</th>
                <th className={th}>Free</th>
                <th className={th}>Threshold</th>
              </tr>
            </thead>
            <tbody>
              {overview.lowStock.map((option) => (
                <tr key={option.optionId}>
                  <td className={`${td} break-words`}>
                    {reaches("catalogue") ? (
                      <Link to={`/admin/stock/${option.optionId}`} className="text-brand-700 underline">
                        {option.product} — {option.option}
                      </Link>
                    ) : (
                      `${option.product} — ${option.option}`
                    )}
                  </td>
                  <td className={td}>{option.free}</td>
                  <td className={td}>{option.threshold}</td>
                </tr>
              ))}
            </tbody>
          </AdminTable>
        )}
      </section>
      {reaches("audit") && (
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
