import { createHash } from "node:crypto";
import { createCookie } from "@remix-run/node";
import type { Category, Product } from "~/lib/catalogue.server";

/*
 * Server-side pieces of the landing page: which announcement a visitor dismissed (a preference
 * cookie, so dismissing works without JavaScript), and the slice of the catalogue it shows.
 */

/** Remembers a hash of the dismissed text: a new announcement shows again. */
export const dismissedAnnouncementCookie = createCookie("announcement_dismissed", {
  path: "/",
  httpOnly: true,
  sameSite: "lax",
  maxAge: 60 * 60 * 24 * 30,
});

export const ANNOUNCEMENT_KEY_PATTERN = /^[a-f0-9]{16}$/;

export function announcementKey(text: string): string {
  return createHash("sha256").update(text).digest("hex").slice(0, 16);
}

export async function dismissedAnnouncementKey(request: Request): Promise<string | null> {
  const value: unknown = await dismissedAnnouncementCookie.parse(request.headers.get("cookie"));
  return typeof value === "string" && ANNOUNCEMENT_KEY_PATTERN.test(value) ? value : null;
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
