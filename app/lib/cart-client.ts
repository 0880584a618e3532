import { QUANTITY_LIMIT } from "../../contract/order";

/* Cart rules that the browser needs too (the server repeats them through /v1/cart/quote). */

export const SELECT_WARRANTY = "Please select a warranty option";

/** Quantity lies in [minQuantity, min(maxQuantity or 999, available stock)] (spec section 5). */
export function quantityBounds(product: { minQuantity: number; maxQuantity: number | null }, availableStock: number) {
  const max = Math.min(product.maxQuantity ?? QUANTITY_LIMIT, availableStock);
  return { min: product.minQuantity, max: Math.max(product.minQuantity, max) };
}

/** Keeps ?cart=open out of links that should not reopen the panel, and puts it into ones that should. */
export function withCartPanel(pathAndSearch: string, open: boolean): string {
  const url = new URL(pathAndSearch, "http://local");
  if (open) url.searchParams.set("cart", "open");
  else url.searchParams.delete("cart");
  return url.pathname + url.search;
}
