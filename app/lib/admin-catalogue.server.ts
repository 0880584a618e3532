import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { CategoryInput, DurationInput, OptionInput, ProductInput } from "../../contract/admin-catalogue";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's catalogue (ADR 024). */

const categorySchema = z.object({ _id: z.string(), name: z.string(), position: z.number(), products: z.number() });
export type AdminCategory = z.infer<typeof categorySchema>;

const productRowSchema = z.object({
  _id: z.string(),
  title: z.string(),
  label: z.string(),
  picture: z.string(),
  active: z.boolean(),
  fulfilMode: z.enum(["auto", "manual"]),
  position: z.number(),
  categories: z.array(z.string()),
  options: z.number(),
  freeStock: z.number(),
});
export type AdminProductRow = z.infer<typeof productRowSchema>;

const durationSchema = z.object({
  _id: z.string(),
  title: z.string(),
  days: z.number(),
  price: z.number(),
  position: z.number(),
});
export type AdminDuration = z.infer<typeof durationSchema>;

const optionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  seats: z.number(),
  lowStockThreshold: z.number(),
  active: z.boolean(),
  position: z.number(),
  freeSeats: z.number(),
  stockRows: z.number(),
  durations: z.array(durationSchema),
});
export type AdminOption = z.infer<typeof optionSchema>;

const productSchema = z.object({
  _id: z.string(),
  title: z.string(),
  label: z.string(),
  subtitle: z.string(),
  description: z.string(),
  deliveryNotes: z.string(),
  picture: z.string(),
  minQuantity: z.number(),
  maxQuantity: z.number().nullable(),
  fulfilMode: z.enum(["auto", "manual"]),
  replacementLimit: z.number(),
  autoReplace: z.boolean(),
  active: z.boolean(),
  position: z.number(),
  categoryIds: z.array(z.string()),
  options: z.array(optionSchema),
  updatedAt: z.string(),
});
export type AdminProduct = z.infer<typeof productSchema>;

const savedSchema = z.object({ _id: z.string(), title: z.string() });
const at = (...segments: string[]) => `/v1/admin/catalogue/${segments.map(encodeURIComponent).join("/")}`;

export function listCategories(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: at("categories"), request, payload: z.array(categorySchema) });
}

export function createCategory(
  context: AppLoadContext,
  request: Request,
  input: CategoryInput,
  idempotencyKey?: string,
) {
  return apiCall(context, { path: at("categories"), request, body: input, payload: categorySchema, idempotencyKey });
}

export function updateCategory(context: AppLoadContext, request: Request, categoryId: string, input: CategoryInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("categories", categoryId),
    request,
    body: input,
    payload: categorySchema,
  });
}

export function deleteCategory(context: AppLoadContext, request: Request, categoryId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: at("categories", categoryId),
    request,
    payload: z.object({ name: z.string() }),
  });
}

export function listProducts(context: AppLoadContext, request: Request, query: { search: string; page: number }) {
  const search = new URLSearchParams({ search: query.search, page: String(query.page) });
  return apiPayload(context, {
    path: `${at("products")}?${search}`,
    request,
    payload: z.object({ records: z.array(productRowSchema), pager: pagerSchema }),
  });
}

export function readProduct(context: AppLoadContext, request: Request, productId: string) {
  return apiPayload(context, { path: at("products", productId), request, payload: productSchema });
}

export function createProduct(context: AppLoadContext, request: Request, input: ProductInput, idempotencyKey?: string) {
  return apiCall(context, { path: at("products"), request, body: input, payload: productSchema, idempotencyKey });
}

export function updateProduct(context: AppLoadContext, request: Request, productId: string, input: ProductInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("products", productId),
    request,
    body: input,
    payload: productSchema,
  });
}

export function uploadPicture(context: AppLoadContext, request: Request, productId: string, bytes: ArrayBuffer) {
  return apiCall(context, {
    path: at("products", productId, "picture"),
    request,
    body: { data: Buffer.from(bytes).toString("base64") },
    payload: productSchema,
  });
}

export function createOption(
  context: AppLoadContext,
  request: Request,
  productId: string,
  input: OptionInput,
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: at("products", productId, "options"),
    request,
    body: input,
    payload: savedSchema,
    idempotencyKey,
  });
}

export function updateOption(context: AppLoadContext, request: Request, optionId: string, input: OptionInput) {
  return apiCall(context, { method: "PUT", path: at("options", optionId), request, body: input, payload: savedSchema });
}

export function createDuration(
  context: AppLoadContext,
  request: Request,
  optionId: string,
  input: DurationInput,
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: at("options", optionId, "durations"),
    request,
    body: input,
    payload: durationSchema,
    idempotencyKey,
  });
}

export function updateDuration(context: AppLoadContext, request: Request, durationId: string, input: DurationInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("durations", durationId),
    request,
    body: input,
    payload: durationSchema,
  });
}

export function deleteDuration(context: AppLoadContext, request: Request, durationId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: at("durations", durationId),
    request,
    payload: z.object({ title: z.string() }),
  });
}
