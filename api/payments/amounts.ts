/**
 * Exact conversions between integer cents and the decimal strings that Coinbase Commerce and Shoppy use.
 * No floating point: "0.29" must be 29 cents, never 28.999999999999996.
 */

/** Whole dollars are bounded so that the cents stay far inside Number.MAX_SAFE_INTEGER. */
const DECIMAL_AMOUNT = /^(\d{1,10})(?:\.(\d{1,2})0*)?$/;

/**
 * "12.50" -> 1250, "12" -> 1200, "12.5" -> 1250, "12.500" -> 1250.
 * Returns null for anything else: signs, exponents, spaces, sub-cent digits ("12.505"), empty strings.
 * A JSON number is read through its shortest decimal form, which is exact for any price a shop charges.
 */
export function parseDecimalAmount(value: unknown): number | null {
  const text = typeof value === "number" && Number.isFinite(value) ? String(value) : value;
  if (typeof text !== "string") return null;
  const match = DECIMAL_AMOUNT.exec(text);
  if (!match) return null;
  const [, dollars, fraction = ""] = match;
  return Number(dollars) * 100 + Number(fraction.padEnd(2, "0"));
}

/** 1250 -> "12.50", 5 -> "0.05". */
export function formatDecimalAmount(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not a number of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}
