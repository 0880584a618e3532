import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { apiCall, apiPayload, optionalText } from "./api.server";

/* The catalogue side of /v1 (see the contract), each answer checked with zod. */

const productSchema = z.object({
  _id: z.string(),
  title: z.string(),
  label: optionalText,
  subtitle: optionalText,
  picture: optionalText,
  description: optionalText,
  totalStock: z.number(),
  minPrice: z.number(),
  minQuantity: z.number().int(),
  maxQuantity: z.number().int().nullable(),
  categoryIds: z.array(z.string()),
  /** Visible feedback: average stars (0 with none) and how many. */
  rating: z.object({ average: z.number(), count: z.number().int() }).default({ average: 0, count: 0 }),
});
export type Product = z.infer<typeof productSchema>;

const categorySchema = z.object({ _id: z.string(), name: z.string() });
export type Category = z.infer<typeof categorySchema>;

export const subOptionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  duration: z.number().int(),
  price: z.number(),
});
export type SubOption = z.infer<typeof subOptionSchema>;

const optionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  availableStock: z.number().int(),
  subOptions: z.array(subOptionSchema),
});
export type ProductOption = z.infer<typeof optionSchema>;

const socialLinkSchema = z.object({ _id: z.string(), name: z.string(), link: z.string() });
export type SocialLink = z.infer<typeof socialLinkSchema>;

export function listProducts(context: AppLoadContext, request: Request): Promise<Product[]> {
  return apiPayload(context, { path: "/v1/product/read", payload: z.array(productSchema), request });
}

export function listCategories(context: AppLoadContext, request: Request): Promise<Category[]> {
  return apiPayload(context, { path: "/v1/category/read", payload: z.array(categorySchema), request });
}

/** The product and its options; a 404 page for an id that is malformed or unknown. */
export async function readProductWithOptions(
  context: AppLoadContext,
  request: Request,
  productId: string,
): Promise<{ product: Product; options: ProductOption[] }> {
  if (!PUBLIC_ID_PATTERN.test(productId)) throw new Response("Product not found", { status: 404 });
  // The one product, not the whole list: an unknown or inactive id is the API's 404, thrown as the 404 page.
  const [product, options] = await Promise.all([
    apiPayload(context, { path: `/v1/product/read/${productId}`, payload: productSchema, request }),
    apiPayload(context, { path: `/v1/product/option/read/${productId}`, payload: z.array(optionSchema), request }),
  ]);
  return { product, options };
}

/** Only links that are really http(s): they end up in every page's href. */
const safeLink = (link: SocialLink) => /^https?:\/\//i.test(link.link);

/** Social links for the footer; a failing API gives none ("other read failures are silently ignored"). */
export async function listSocialLinks(context: AppLoadContext): Promise<SocialLink[]> {
  try {
    const result = await apiCall(context, { path: "/v1/social_link/read", payload: z.array(socialLinkSchema) });
    return result.ok ? result.payload.filter(safeLink) : [];
  } catch {
    return [];
  }
}
