/* Rules of a balance top-up shared by the API's validation and the /balance form (its maximum is in money.ts). */

/** The form's smallest amount (spec section 5: input minimum 1); the API accepts any amount above 0. */
export const TOP_UP_MIN_USD = 1;
export const VALID_AMOUNT = "Please enter a valid amount";

/** True when a USD amount has at most two decimals (binary floats: 0.1 + 0.2 style noise is tolerated). */
export function hasAtMostTwoDecimals(usd: number): boolean {
  return Number.isInteger(Math.round(usd * 100 * 1e6) / 1e6);
}

/** The kinds of balance ledger entries: `out` is a debit, the others credits; `adjustment` is staff's, by hand. */
export const BALANCE_ENTRY_TYPES = ["in", "out", "refund", "adjustment"] as const;
