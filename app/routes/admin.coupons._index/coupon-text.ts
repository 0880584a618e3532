import { formatUsd } from "~/lib/money";

/* How the back office writes a coupon's discount and uses. */

export function couponDiscount(coupon: { kind: "percent" | "fixed"; amount: number }): string {
  return coupon.kind === "percent" ? `${coupon.amount}%` : formatUsd(coupon.amount);
}

/** `3 / 100`, or `3` without a total limit. */
export function couponUses(coupon: { usedCount: number; maxUses: number | null }): string {
  return coupon.maxUses === null ? String(coupon.usedCount) : `${coupon.usedCount} / ${coupon.maxUses}`;
}
