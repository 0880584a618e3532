import type { AppLoadContext } from "@remix-run/node";
import type { CategoryInput, DurationInput, OptionInput, ProductInput } from "../../contract/admin-catalogue";
import {
  adminCategoriesSchema,
  adminCategorySchema,
  adminProductPageSchema,
  adminProductSchema,
  deletedCategorySchema,
  deletedDurationSchema,
  savedDurationSchema,
  savedOptionSchema,
} from "../../contract/answers/admin-catalogue";
import { type ListParams, readListPage } from "./admin-list.server";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's catalogue (ADR 024). */

export type {
  AdminCategory,
  AdminDuration,
  AdminOption,
  AdminProduct,
  AdminProductRow,
} from "../../contract/answers/admin-catalogue";

const at = (...segments: string[]) => `/v1/admin/catalogue/${segments.map(encodeURIComponent).join("/")}`;

export function listCategories(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: at("categories"), request, answer: adminCategoriesSchema });
}

export function createCategory(
  context: AppLoadContext,
  request: Request,
  input: CategoryInput,
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: at("categories"),
    request,
    body: input,
    answer: adminCategorySchema,
    idempotencyKey,
  });
}

export function updateCategory(context: AppLoadContext, request: Request, categoryId: string, input: CategoryInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("categories", categoryId),
    request,
    body: input,
    answer: adminCategorySchema,
  });
}

export function deleteCategory(context: AppLoadContext, request: Request, categoryId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: at("categories", categoryId),
    request,
    answer: deletedCategorySchema,
  });
}

export function listProducts(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: at("products"), query, answer: adminProductPageSchema });
}

export function readProduct(context: AppLoadContext, request: Request, productId: string) {
  return apiPayload(context, { path: at("products", productId), request, answer: adminProductSchema });
}

export function createProduct(context: AppLoadContext, request: Request, input: ProductInput, idempotencyKey?: string) {
  return apiCall(context, { path: at("products"), request, body: input, answer: adminProductSchema, idempotencyKey });
}

export function updateProduct(context: AppLoadContext, request: Request, productId: string, input: ProductInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("products", productId),
    request,
    body: input,
    answer: adminProductSchema,
  });
}

export function uploadPicture(context: AppLoadContext, request: Request, productId: string, bytes: ArrayBuffer) {
  return apiCall(context, {
    path: at("products", productId, "picture"),
    request,
    body: { data: Buffer.from(bytes).toString("base64") },
    answer: adminProductSchema,
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
    answer: savedOptionSchema,
    idempotencyKey,
  });
}

export function updateOption(context: AppLoadContext, request: Request, optionId: string, input: OptionInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("options", optionId),
    request,
    body: input,
    answer: savedOptionSchema,
  });
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
    answer: savedDurationSchema,
    idempotencyKey,
  });
}

export function updateDuration(context: AppLoadContext, request: Request, durationId: string, input: DurationInput) {
  return apiCall(context, {
    method: "PUT",
    path: at("durations", durationId),
    request,
    body: input,
    answer: savedDurationSchema,
  });
}

export function deleteDuration(context: AppLoadContext, request: Request, durationId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: at("durations", durationId),
    request,
    answer: deletedDurationSchema,
  });
}
