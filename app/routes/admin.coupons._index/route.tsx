import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { COUPON_SOURCES } from "../../../contract/admin-coupons";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime, buttonClass } from "~/components/admin/admin-ui";
import { couponDiscount, couponUses } from "./coupon-text";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import type { AdminCoupon } from "../../../contract/answers/admin-coupons";
import { listCoupons } from "./coupons.server";
import { listChoice, listQuery, listText } from "~/lib/list-query";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Coupons | Back office" }];

const querySchema = z.object({ source: listChoice(COUPON_SOURCES, "admin"), search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const query = listQuery(new URL(request.url), querySchema);
  // One clock for the server's render and the browser's, so "Expired" reads the same in both.
  return { query, now: Date.now(), list: await listCoupons(context, request, query) };
}

function couponState(coupon: AdminCoupon, now: number): string {
  if (!coupon.active) return "Inactive";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= now) return "Expired";
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return "Used up";
  return "Active";
}

const productsOf = (coupon: AdminCoupon) =>
  coupon.products.length === 0 ? "Any product" : coupon.products.map((product) => product.title).join(", ");

export default function CouponsPage() {
  const { query, list, now } = useLoaderData<typeof loader>();
  const slots = query.source === "slots";
  return (
    <div className="flex flex-col gap-6">
      <div className="flex flex-wrap items-start justify-between gap-3">
        <AdminHeading title="Coupons">
          What checkout applies: the discount, its limits and the products it is for. Slots prizes are listed apart.
        </AdminHeading>
        <Link to="/admin/coupons/new" className={buttonClass}>
          New coupon
        </Link>
      </div>
      <AdminList
        label={slots ? "Slots prizes" : "Store coupons"}
        pathname="/admin/coupons"
        query={query}
        tabs={{ name: "source", label: "Coupon source", options: { admin: "Store coupons", slots: "Slots prizes" } }}
        filters={[
          {
            name: "search",
            label: "Search coupons",
            placeholder: slots ? "part of the code or the winner's email" : "part of the code",
          },
        ]}
        empty={["No coupon matches this search.", "No coupons yet."]}
        list={list}
        columns={[
          {
            header: "Code",
            className: "break-all",
            cell: (coupon) => (
              <Link to={`/admin/coupons/${coupon._id}`} className="font-mono font-semibold text-brand-700 underline">
                {coupon.code}
              </Link>
            ),
          },
          { header: "Discount", cell: couponDiscount },
          { header: "Uses", cell: (coupon) => <span data-testid="coupon-uses">{couponUses(coupon)}</span> },
          { header: "Per customer", cell: (coupon) => coupon.perCustomerLimit ?? "—" },
          { header: "Minimum", cell: (coupon) => (coupon.minAmount > 0 ? formatUsd(coupon.minAmount) : "—") },
          {
            header: "Expires",
            cell: (coupon) => (coupon.expiresAt ? <AdminTime iso={coupon.expiresAt} /> : "Never"),
          },
          {
            header: slots ? "Winner" : "Products",
            className: "break-words",
            cell: (coupon) => (slots ? (coupon.ownerEmail ?? "—") : productsOf(coupon)),
          },
          { header: "State", cell: (coupon) => couponState(coupon, now) },
        ]}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
