const usd = new Intl.NumberFormat("en-US", { style: "currency", currency: "USD" });

/** The API sends USD as numbers with at most two decimals; the UI always shows two. */
export function formatUsd(amount: number): string {
  return usd.format(amount);
}
