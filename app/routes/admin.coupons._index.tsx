import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, Link, useLoaderData } from "@remix-run/react";
import {
  AdminHeading,
  AdminTable,
  AdminTime,
  Pager,
  buttonClass,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { couponDiscount, couponUses } from "~/components/admin/coupon-text";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type AdminCoupon, type CouponFilters, listCoupons } from "~/lib/admin-coupons.server";
import { formatUsd } from "~/lib/money";

export const meta: MetaFunction = () => [{ title: "Coupons | Back office" }];

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "coupons");
  const url = new URL(request.url);
  const filters: CouponFilters = {
    search: (url.searchParams.get("search") ?? "").trim().slice(0, 200),
    source: url.searchParams.get("source") === "slots" ? "slots" : "admin",
  };
  // One clock for the server's render and the browser's, so "Expired" reads the same in both.
  return { filters, now: Date.now(), list: await listCoupons(context, request, { ...filters, page: pageFrom(url) }) };
}

const SOURCES = [
  { source: "admin", label: "Store coupons" },
  { source: "slots", label: "Slots prizes" },
] as const;

function couponState(coupon: AdminCoupon, now: number): string {
  if (!coupon.active) return "Inactive";
  if (coupon.expiresAt && new Date(coupon.expiresAt).getTime() <= now) return "Expired";
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) return "Used up";
  return "Active";
}

export default function CouponsPage() {
  const { filters, list, now } = useLoaderData<typeof loader>();
  const slots = filters.source === "slots";
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Coupons">
        What checkout applies: the discount, its limits and the products it is for. Slots prizes are listed apart.
      </AdminHeading>
      <div className="flex flex-wrap items-center justify-between gap-3">
        <nav aria-label="Coupon source" className="flex gap-1">
          {SOURCES.map((tab) => (
            <Link
              key={tab.source}
              to={tab.source === "admin" ? "/admin/coupons" : "/admin/coupons?source=slots"}
              aria-current={filters.source === tab.source ? "page" : undefined}
              className="rounded-md px-3 py-1.5 font-semibold hover:bg-slate-100 aria-[current=page]:bg-slate-800 aria-[current=page]:text-white"
            >
              {tab.label}
            </Link>
          ))}
        </nav>
        <Link to="/admin/coupons/new" className={buttonClass}>
          New coupon
        </Link>
      </div>
      <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
        {slots && <input type="hidden" name="source" value="slots" />}
        <div className="flex min-w-0 flex-1 flex-col gap-1">
          <label htmlFor="coupon-search" className="text-sm font-semibold">
            Search coupons
          </label>
          <input
            id="coupon-search"
            name="search"
            type="search"
            defaultValue={filters.search}
            maxLength={200}
            placeholder={slots ? "part of the code or the winner's email" : "part of the code"}
            className={inputClass}
          />
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Search
        </button>
      </Form>
      {list.records.length === 0 ? (
        <p className="text-slate-600">{filters.search ? "No coupon matches this search." : "No coupons yet."}</p>
      ) : (
        <AdminTable label={slots ? "Slots prizes" : "Store coupons"}>
          <thead>
            <tr>
              <th className={th}>Code</th>
              <th className={th}>Discount</th>
              <th className={th}>Uses</th>
              <th className={th}>Per customer</th>
              <th className={th}>Minimum</th>
              <th className={th}>Expires</th>
              <th className={th}>{slots ? "Winner" : "Products"}</th>
              <th className={th}>State</th>
            </tr>
          </thead>
          <tbody>
            {list.records.map((coupon) => (
              <tr key={coupon._id}>
                <td className={`${td} break-all`}>
                  <Link
                    to={`/admin/coupons/${coupon._id}`}
                    className="font-mono font-semibold text-brand-700 underline"
                  >
                    {coupon.code}
                  </Link>
                </td>
                <td className={td}>{couponDiscount(coupon)}</td>
                <td className={td} data-testid="coupon-uses">
                  {couponUses(coupon)}
                </td>
                <td className={td}>{coupon.perCustomerLimit ?? "—"}</td>
                <td className={td}>{coupon.minAmount > 0 ? formatUsd(coupon.minAmount) : "—"}</td>
                <td className={td}>{coupon.expiresAt ? <AdminTime iso={coupon.expiresAt} /> : "Never"}</td>
                <td className={`${td} break-words`}>
                  {slots
                    ? (coupon.ownerEmail ?? "—")
                    : coupon.products.length === 0
                      ? "Any product"
                      : coupon.products.map((product) => product.title).join(", ")}
                </td>
                <td className={td}>{couponState(coupon, now)}</td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager
        label="Coupon pages"
        pager={list.pager}
        href={(page) => pageHref("/admin/coupons", { search: filters.search, source: slots ? "slots" : "" }, page)}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
