import { z } from "zod";

/*
 * What a checkout form shows (issue 36, ADR 052): its lines, quantities and prices, the coupon and the
 * total, reduced to one digest. The page that renders the form puts the digest in it; the order's
 * transaction computes the same digest of the cart it is about to order and refuses when they differ,
 * so a person is only ever charged for the cart the page showed them.
 */

export type ShownCart = {
  lines: { optionId: string; duration: number; quantity: number; priceCents: number }[];
  /** The applied coupon's code, "" for none. */
  coupon: string;
  totalCents: number;
};

/**
 * The same cart in any line order and coupon case gives the same digest: SHA-256 as 43 base64url characters
 * (Web Crypto, which Node and browsers both have, so contract/ stays free of node: modules).
 */
export async function shownCartDigest(cart: ShownCart): Promise<string> {
  const lines = [...cart.lines]
    .sort((a, b) => (a.optionId < b.optionId ? -1 : a.optionId > b.optionId ? 1 : a.duration - b.duration))
    .map((line) => [line.optionId, line.duration, line.quantity, line.priceCents]);
  const canonical = JSON.stringify([lines, cart.coupon.trim().toUpperCase(), cart.totalCents]);
  const digest = new Uint8Array(await crypto.subtle.digest("SHA-256", new TextEncoder().encode(canonical)));
  return btoa(String.fromCharCode(...digest))
    .replace(/\+/g, "-")
    .replace(/\//g, "_")
    .replace(/=+$/, "");
}

export const CART_CHANGED =
  "Your cart changed since this page was shown (another tab, a price, the stock or the coupon). " +
  "Nothing was charged: check your cart and check out again.";

/** The digest a checkout form carries; the API refuses the order with CART_CHANGED (409) when it differs. */
export const shownCartField = z
  .string()
  .regex(/^[\w-]{43}$/, CART_CHANGED)
  .describe(
    "the digest of the cart the client showed (lines, quantities, prices, coupon, total; see docs/api.md): " +
      "when given, the order is refused with 409 and `errors.shownCart` unless the cart ordered is that one",
  );
