import type { LoaderFunctionArgs } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { AdminHeading } from "~/components/admin/admin-ui";
import { PageSection, RecordTable } from "~/components/admin/detail-ui";
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
  const waitingTiles = [
    { label: "Tickets waiting", count: waiting.ticketsWaiting, href: "/admin/tickets", area: "support" },
    { label: "Pending requests", count: waiting.pendingRequests, href: "/admin/requests", area: "support" },
    {
      label: "Orders to deliver by hand",
      count: waiting.manualDeliveries,
      href: "/admin/orders?waiting=1",
      area: "ordersRead",
    },
  ];
  const salesTiles = [
    { label: "Today (UTC)", sold: sales.today },
    { label: "Last 7 days", sold: sales.last7Days },
    { label: "Last 30 days", sold: sales.last30Days },
  ];
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Overview">Signed in as {me.username}.</AdminHeading>
      <PageSection title="Waiting for staff">
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {waitingTiles.map((tile) => (
            <Tile
              key={tile.label}
              label={tile.label}
              value={String(tile.count)}
              href={reaches(tile.area) ? tile.href : undefined}
            />
          ))}
        </dl>
      </PageSection>
      <PageSection title="Sales">
        <dl className="grid grid-cols-1 gap-3 sm:grid-cols-3">
          {salesTiles.map((tile) => (
            <Tile
              key={tile.label}
              label={tile.label}
              value={usd(tile.sold.revenueCents)}
              detail={`${tile.sold.orders} orders`}
            />
          ))}
        </dl>
        <OrdersChart days={overview.perDay} />
      </PageSection>
      <PageSection title="Best sellers, last 30 days">
        <RecordTable
          label="Best sellers"
          rows={overview.topProducts}
          rowKey={(product) => product._id}
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
