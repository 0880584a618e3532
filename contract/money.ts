/** Money is integer cents inside the store and USD with at most two decimals at the edges. */

export function centsToUsd(cents: number): number {
  return Math.round(cents) / 100;
}

/** Rounds to the nearest cent, so 12.999 is 1300 and 0.1 + 0.2 is 30. */
export function usdToCents(usd: number): number {
  return Math.round(Number((usd * 100).toFixed(4)));
}

/** The most one balance top-up may add, in USD. */
export const TOP_UP_MAX_USD = 10_000;
