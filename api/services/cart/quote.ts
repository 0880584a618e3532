import { centsToUsd } from "../../../contract/money";
import { QUANTITY_LIMIT } from "../../../contract/order";
import type { Executor } from "../../db/client";
import type { PricedLine } from "../../../contract/answers/cart";
import { type PricedOption, loadPricedOptions, publicOptionWithProduct } from "../catalogue/shop";

export type CartItemInput = { optionId: string; duration: number; quantity: number };

/** A priced line, as the cart answers declare it. */
export type QuotedLine = PricedLine;

export type CartQuote = {
  cartItems: QuotedLine[];
  /** USD: sum of the lines that are not sold out. */
  cartPrice: number;
  /** Option ids left out: unknown, inactive, or without the asked duration. */
  dropped: string[];
  /** The same total in cents, for checkout and coupons. */
  cartPriceCents: number;
};

/**
 * Prices a cart from the database only: quantities are clamped to what can be bought now,
 * so a stale guest cookie or a tampered form cannot set a price or exceed stock.
 */
export async function quoteCart(db: Executor, items: CartItemInput[]): Promise<CartQuote> {
  const optionIds = [...new Set(items.map((item) => item.optionId))];
  return priceCart(optionIds.length === 0 ? [] : await loadPricedOptions(db, { optionIds }), items);
}

/** quoteCart on options already read (they must include every line's option that is still sold). */
export function priceCart(options: PricedOption[], items: CartItemInput[]): CartQuote {
  const optionsById = new Map(options.map((option) => [option._id, option]));

  const cartItems: QuotedLine[] = [];
  const dropped: string[] = [];
  let cartPriceCents = 0;

  for (const item of items) {
    const option = optionsById.get(item.optionId);
    const unitCents = option?.priceCentsByDuration.get(item.duration);
    if (!option || unitCents === undefined) {
      dropped.push(item.optionId);
      continue;
    }
    const { minQuantity, maxQuantity } = option.product;
    const ceiling = Math.min(maxQuantity ?? QUANTITY_LIMIT, option.availableStock);
    const soldOut = ceiling < minQuantity;
    const quantity = soldOut ? item.quantity : Math.min(Math.max(item.quantity, minQuantity), ceiling);
    const lineCents = unitCents * quantity;
    if (!soldOut) cartPriceCents += lineCents;
    cartItems.push({
      quantity,
      duration: item.duration,
      price: centsToUsd(lineCents),
      soldOut,
      option: publicOptionWithProduct(option),
    });
  }

  return { cartItems, cartPrice: centsToUsd(cartPriceCents), dropped, cartPriceCents };
}
