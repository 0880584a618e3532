import { z } from "zod";
import { fulfilModeSchema, publicIdSchema, usdSchema } from "./common";

/* The catalogue's answers: categories, products and their options (GET /v1/category/read, /v1/product/*). */

export const categorySchema = z.object({ _id: publicIdSchema, name: z.string() });
export type Category = z.infer<typeof categorySchema>;
export const categoryListSchema = z.array(categorySchema);

/** A warranty duration of an option, with its unit price. */
export const subOptionSchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  duration: z.number().int().describe("days"),
  price: usdSchema,
});

/** What an option's lines show of its product. */
export const productSummarySchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  picture: z.string(),
  minQuantity: z.number().int(),
  maxQuantity: z.number().int().nullable(),
});

export const optionSchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  availableStock: z
    .number()
    .int()
    .describe("free seats: available credentials, one per buyer (ADR 025); always 999 for manual products"),
  subOptions: z.array(subOptionSchema).describe("the warranty durations"),
});
export type ProductOption = z.infer<typeof optionSchema>;
export const optionListSchema = z.array(optionSchema);

export const optionWithProductSchema = optionSchema.extend({ product: productSummarySchema });
export type OptionWithProduct = z.infer<typeof optionWithProductSchema>;

export const productSchema = z.object({
  _id: publicIdSchema,
  title: z.string(),
  label: z.string(),
  subtitle: z.string(),
  picture: z.string(),
  description: z.string().describe("plain text; sections separated by a blank line"),
  totalStock: z.number().int(),
  minPrice: usdSchema,
  minQuantity: z.number().int(),
  maxQuantity: z.number().int().nullable().describe("null: no product limit"),
  categoryIds: z.array(publicIdSchema),
  fullFillmode: fulfilModeSchema,
  rating: z
    .object({ average: z.number(), count: z.number().int() })
    .describe("visible feedback: average stars to one decimal (0 with none) and how many"),
});
export type Product = z.infer<typeof productSchema>;
export const productListSchema = z.array(productSchema);

/** The product page's answer: what its dialog shows of the product, and the options to choose from (issue 40). */
export const productPageSchema = z.object({
  product: productSchema.pick({
    _id: true,
    title: true,
    picture: true,
    description: true,
    minQuantity: true,
    maxQuantity: true,
    rating: true,
  }),
  options: optionListSchema,
});
export type ProductPage = z.infer<typeof productPageSchema>;

/** What a product card on /shop shows. */
export const productCardSchema = productSchema.pick({
  _id: true,
  title: true,
  label: true,
  picture: true,
  totalStock: true,
  minPrice: true,
});
export type ProductCard = z.infer<typeof productCardSchema>;

export const shelfSchema = z.object({
  _id: z.string().describe('the category\'s id, or "other" for the products in no category (last, whole shop only)'),
  name: z.string(),
  total: z.number().int().describe("the matching products on this shelf; `products` holds the first of them"),
  products: z.array(productCardSchema).describe("by position"),
});
export type Shelf = z.infer<typeof shelfSchema>;

export const shopShelvesSchema = z.object({
  categories: z.array(categorySchema).describe("the categories with an active product, by position"),
  category: z.string().describe("the category shown whole; empty: every shelf"),
  shelves: z.array(shelfSchema).describe("only shelves with a matching product"),
});
export type ShopShelves = z.infer<typeof shopShelvesSchema>;
