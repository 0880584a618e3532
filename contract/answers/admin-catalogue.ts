import { z } from "zod";
import { FULFIL_MODES } from "../admin-catalogue";
import { isoDateSchema, pageOf, usdSchema, withId } from "./common";

/* The back office's catalogue (/v1/admin/catalogue, ADR 024): categories, products, options, warranty durations. */

/** A category, with how many products it holds (also what creating or saving one answers). */
export const adminCategorySchema = withId({
  name: z.string(),
  position: z.number().int(),
  products: z.number().int().describe("products in it, hidden ones too"),
});
export type AdminCategory = z.infer<typeof adminCategorySchema>;

/** Every category in shop order (GET /v1/admin/catalogue/categories). */
export const adminCategoriesSchema = z.array(adminCategorySchema);

/** A deleted category's name (DELETE /v1/admin/catalogue/categories/{categoryId}). */
export const deletedCategorySchema = z.object({ name: z.string() });
export type DeletedCategory = z.infer<typeof deletedCategorySchema>;

const productRowSchema = withId({
  title: z.string(),
  label: z.string(),
  picture: z.string(),
  active: z.boolean().describe("false: hidden from the shop"),
  fulfilMode: z.enum(FULFIL_MODES),
  position: z.number().int(),
  categories: z.array(z.string()).describe("category names"),
  options: z.number().int(),
  freeStock: z.number().int().describe("free seats over all its options"),
});
export type AdminProductRow = z.infer<typeof productRowSchema>;

/** A page of products, hidden ones too (GET /v1/admin/catalogue/products). */
export const adminProductPageSchema = pageOf(productRowSchema);
export type AdminProductPage = z.infer<typeof adminProductPageSchema>;

/** A warranty duration with its price. */
const adminDurationSchema = withId({
  title: z.string(),
  days: z.number().int(),
  price: usdSchema,
  position: z.number().int(),
});
export type AdminDuration = z.infer<typeof adminDurationSchema>;

const adminOptionSchema = withId({
  title: z.string(),
  seats: z.number().int().describe("buyers per imported account"),
  lowStockThreshold: z.number().int(),
  active: z.boolean(),
  position: z.number().int(),
  freeSeats: z.number().int(),
  stockRows: z.number().int().describe("stock rows of any state; seats change only at 0"),
  durations: z.array(adminDurationSchema),
});
export type AdminOption = z.infer<typeof adminOptionSchema>;

/** A product with every option (hidden ones too), free seats and warranty durations. */
export const adminProductSchema = withId({
  title: z.string(),
  label: z.string(),
  subtitle: z.string(),
  description: z.string(),
  deliveryNotes: z.string(),
  picture: z.string(),
  minQuantity: z.number().int(),
  maxQuantity: z.number().int().nullable(),
  fulfilMode: z.enum(FULFIL_MODES),
  replacementLimit: z.number().int(),
  autoReplace: z.boolean(),
  active: z.boolean(),
  position: z.number().int(),
  categoryIds: z.array(z.string()),
  options: z.array(adminOptionSchema),
  updatedAt: isoDateSchema,
});
export type AdminProduct = z.infer<typeof adminProductSchema>;

/** An option just added or saved. */
export const savedOptionSchema = z.object({ _id: z.string(), productId: z.string(), title: z.string() });
export type SavedOption = z.infer<typeof savedOptionSchema>;

/** A warranty duration just added or saved, with its product. */
export const savedDurationSchema = adminDurationSchema.extend({ productId: z.string() });
export type SavedDuration = z.infer<typeof savedDurationSchema>;

/** A deleted warranty duration (DELETE /v1/admin/catalogue/durations/{durationId}). */
export const deletedDurationSchema = z.object({ title: z.string(), productId: z.string() });
export type DeletedDuration = z.infer<typeof deletedDurationSchema>;
