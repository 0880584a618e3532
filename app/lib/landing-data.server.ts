import { createHash } from "node:crypto";
import type { Category, Product } from "~/lib/catalogue.server";

/*
 * Server-side pieces of the landing page: the key of an announcement (its dismissal is a preference
 * cookie, so dismissing works without JavaScript), and the slice of the catalogue it shows.
 */

/** The key the announcementDismissed cookie (cookies.server.ts) remembers for `text`. */
export function announcementKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export type FeaturedProduct = Pick<Product, "_id" | "title" | "subtitle" | "minPrice">;

/**
 * One product from each of the first categories (in the shop's order), so the picks show the range.
 * Only products with a price; those in stock come first.
 */
export function featuredProducts(
  products: readonly Product[],
  categories: readonly Category[],
  count: number,
): FeaturedProduct[] {
  const priced = products.filter((product) => product.minPrice > 0);
  const candidates = [
    ...priced.filter((product) => product.totalStock > 0),
    ...priced.filter((product) => product.totalStock <= 0),
  ];
  const picked = new Set<Product>();
  for (const category of categories) {
    if (picked.size === count) break;
    const first = candidates.find((product) => product.categoryIds.includes(category._id) && !picked.has(product));
    if (first) picked.add(first);
  }
  for (const product of candidates) {
    if (picked.size === count) break;
    picked.add(product);
  }
  return [...picked].map(({ _id, title, subtitle, minPrice }) => ({ _id, title, subtitle, minPrice }));
}
