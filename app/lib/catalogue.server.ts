import type { AppLoadContext } from "@remix-run/node";
import {
  type Category,
  type Product,
  categoryListSchema,
  productListSchema,
  type ShopShelves,
  type ProductPage,
  productPageSchema,
  shopShelvesSchema,
} from "../../contract/answers/catalogue";
import { type SocialLink, socialLinkListSchema } from "../../contract/answers/content";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { apiCall, apiPayload } from "./api.server";

/* The catalogue side of /v1: the answers are typed by the routes' contract (contract/answers/catalogue.ts). */

export type { Category, Product, SocialLink };

export function listProducts(context: AppLoadContext, request: Request): Promise<Product[]> {
  return apiPayload(context, { path: "/v1/product/read", answer: productListSchema, request });
}

export function listCategories(context: AppLoadContext, request: Request): Promise<Category[]> {
  return apiPayload(context, { path: "/v1/category/read", answer: categoryListSchema, request });
}

/** The shop's shelves for a search and category (an unknown category: every shelf), `perShelf` cards each. */
export function listShopShelves(
  context: AppLoadContext,
  request: Request,
  query: { search: string; category: string; perShelf: number },
): Promise<ShopShelves> {
  const params = new URLSearchParams({ perShelf: String(query.perShelf) });
  if (query.search) params.set("search", query.search);
  if (query.category) params.set("category", query.category);
  return apiPayload(context, { path: `/v1/product/shelves?${params}`, answer: shopShelvesSchema, request });
}

/** The product and its options in one call; a 404 page for an id that is malformed or unknown. */
export function readProductPage(context: AppLoadContext, request: Request, productId: string): Promise<ProductPage> {
  if (!PUBLIC_ID_PATTERN.test(productId)) throw new Response("Product not found", { status: 404 });
  // The one product, not the whole list: an unknown or inactive id is the API's 404, thrown as the 404 page.
  return apiPayload(context, { path: `/v1/product/page/${productId}`, answer: productPageSchema, request });
}

/** Only links that are really http(s): they end up in every page's href. */
const safeLink = (link: SocialLink) => /^https?:\/\//i.test(link.link);

/** Social links for the footer; a failing API gives none ("other read failures are silently ignored"). */
export async function listSocialLinks(context: AppLoadContext): Promise<SocialLink[]> {
  try {
    const result = await apiCall(context, { path: "/v1/social_link/read", answer: socialLinkListSchema });
    return result.ok ? result.payload.filter(safeLink) : [];
  } catch {
    return [];
  }
}
