import { useFetcher } from "@remix-run/react";
import { CopyField } from "../order/copy-field";

/* The customer's won coupons: listed with a copy button on /slots, and one click from the cart panel. */

export type SlotCouponView = { code: string; discount: number; expiresAt: string };

const expiry = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export const couponExpiry = (iso: string) => `${expiry.format(new Date(iso))} UTC`;

export function SlotCoupons({ coupons }: { coupons: SlotCouponView[] }) {
  return (
    <ul className="grid gap-3 sm:grid-cols-2" data-testid="slot-coupons">
      {coupons.map((coupon) => (
        <li key={coupon.code} className="flex flex-col gap-1 rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <CopyField label={`${coupon.discount}% off coupon`} value={coupon.code} />
          <span className="text-xs text-slate-600">Valid until {couponExpiry(coupon.expiresAt)}</span>
        </li>
      ))}
    </ul>
  );
}

/** In the cart panel: each won coupon applies with one button (a plain form posting the code to /cart). */
export function SlotCouponPicker({ coupons, redirectTo }: { coupons: SlotCouponView[]; redirectTo: string }) {
  const fetcher = useFetcher();
  if (coupons.length === 0) return null;
  return (
    <div className="flex flex-col gap-1">
      <p className="text-sm font-semibold">Your coupons</p>
      <ul className="flex flex-wrap gap-2">
        {coupons.map((coupon) => (
          <li key={coupon.code}>
            <fetcher.Form method="post" action="/cart" preventScrollReset>
              <input type="hidden" name="intent" value="coupon" />
              <input type="hidden" name="redirectTo" value={redirectTo} />
              <input type="hidden" name="coupon" value={coupon.code} />
              <button
                type="submit"
                aria-label={`Apply coupon ${coupon.code}, ${coupon.discount}% off`}
                className="rounded-md border border-emerald-600 px-3 py-1 font-mono text-sm text-emerald-800 hover:bg-emerald-50"
              >
                {coupon.code} · {coupon.discount}%
              </button>
            </fetcher.Form>
          </li>
        ))}
      </ul>
    </div>
  );
}
