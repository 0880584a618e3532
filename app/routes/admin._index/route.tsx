import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { PageSection, RecordTable, byId } from "~/components/admin/detail-ui";
import { OrdersChart } from "./orders-chart";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { readOverview, requireStaff } from "~/lib/admin.server";
import { formatUsd } from "~/lib/money";

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return { me, overview: await readOverview(context, request) };
}

const usd = (cents: number) => formatUsd(cents / 100);

type Tile = { label: string; value: string; detail?: string; href?: string };

function Tiles({ tiles }: { tiles: Tile[] }) {
  return (
    <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
      {tiles.map(({ label, value, detail, href }) => (
        <div key={label} className="rounded-xl border border-slate-200 bg-white p-4">
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
      ))}
    </dl>
  );
}

export default function AdminOverview() {
  const { me, overview } = useLoaderData<typeof loader>();
  const { sales, waiting } = overview;
  const reaches = (area: string) => me.areas.includes(area as never);
  const waitingTiles: [string, number, string, string][] = [
    ["Tickets waiting", waiting.ticketsWaiting, "/admin/tickets", "support"],
    ["Pending requests", waiting.pendingRequests, "/admin/requests", "support"],
    ["Orders to deliver by hand", waiting.manualDeliveries, "/admin/orders?waiting=1", "ordersRead"],
  ];
  const salesTiles: [string, { revenueCents: number; orders: number }][] = [
    ["Today (UTC)", sales.today],
    ["Last 7 days", sales.last7Days],
    ["Last 30 days", sales.last30Days],
  ];
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Overview">Signed in as {me.username}.</AdminHeading>
      <PageSection title="Waiting for staff">
        <Tiles
          tiles={waitingTiles.map(([label, count, href, area]) => ({
            label,
            value: String(count),
            href: reaches(area) ? href : undefined,
          }))}
        />
      </PageSection>
      <PageSection title="Sales">
        <Tiles
          tiles={salesTiles.map(([label, sold]) => ({
            label,
            value: usd(sold.revenueCents),
            detail: `${sold.orders} orders`,
          }))}
        />
        <OrdersChart days={overview.perDay} />
      </PageSection>
      <PageSection title="Best sellers, last 30 days">
        <RecordTable
          label="Best sellers"
          rows={overview.topProducts}
          rowKey={byId}
          empty="No sales in the last 30 days."
          columns={[
            { header: "Product", className: "break-words", cell: (product) => product.title },
            { header: "Sold", cell: (product) => product.quantity },
            { header: "Revenue", cell: (product) => usd(product.revenueCents) },
          ]}
        />
      </PageSection>
      <PageSection title="Low stock">
        <RecordTable
          label="Low stock"
          rows={overview.lowStock}
          rowKey={(option) => option.optionId}
          empty="No option is under its low-stock threshold."
          columns={[
            {
              header: "Option",
              className: "break-words",
              cell: (option) =>
                reaches("catalogue") ? (
                  <Link to={`/admin/stock/${option.optionId}`} className="text-brand-700 underline">
                    {option.product} — {option.option}
                  </Link>
                ) : (
                  `${option.product} — ${option.option}`
                ),
            },
            { header: "Free", cell: (option) => option.free },
            { header: "Threshold", cell: (option) => option.threshold },
          ]}
        />
      </PageSection>
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
