import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import type { CouponInput } from "../../contract/admin-coupons";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's coupons (ADR 026). */

const couponSchema = z.object({
  _id: z.string(),
  code: z.string(),
  kind: z.enum(["percent", "fixed"]),
  amount: z.number(),
  minAmount: z.number(),
  maxUses: z.number().nullable(),
  usedCount: z.number(),
  perCustomerLimit: z.number().nullable(),
  expiresAt: z.string().nullable(),
  products: z.array(z.object({ _id: z.string(), title: z.string() })),
  active: z.boolean(),
  source: z.enum(["admin", "slots"]),
  ownerEmail: z.string().nullable(),
  createdAt: z.string(),
});
export type AdminCoupon = z.infer<typeof couponSchema>;
const productChoiceSchema = z.object({ _id: z.string(), title: z.string(), active: z.boolean() });
export type ProductChoice = z.infer<typeof productChoiceSchema>;

export type CouponFilters = { search: string; source: "admin" | "slots" };

export function listCoupons(context: AppLoadContext, request: Request, filters: CouponFilters & { page: number }) {
  const search = new URLSearchParams({ ...filters, page: String(filters.page) });
  return apiPayload(context, {
    path: `/v1/admin/coupons?${search}`,
    request,
    payload: z.object({ records: z.array(couponSchema), pager: pagerSchema }),
  });
}

export function readCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiPayload(context, {
    path: `/v1/admin/coupons/${encodeURIComponent(couponId)}`,
    request,
    payload: couponSchema,
  });
}

export function listProductChoices(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/coupons/products", request, payload: z.array(productChoiceSchema) });
}

export function createCoupon(context: AppLoadContext, request: Request, input: CouponInput, idempotencyKey?: string) {
  return apiCall(context, { path: "/v1/admin/coupons", request, body: input, payload: couponSchema, idempotencyKey });
}

export function updateCoupon(context: AppLoadContext, request: Request, couponId: string, input: CouponInput) {
  return apiCall(context, {
    method: "PUT",
    path: `/v1/admin/coupons/${encodeURIComponent(couponId)}`,
    request,
    body: input,
    payload: couponSchema,
  });
}

export function deactivateCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiCall(context, {
    path: `/v1/admin/coupons/${encodeURIComponent(couponId)}/deactivate`,
    request,
    body: {},
    payload: couponSchema,
  });
}

export function deleteCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: `/v1/admin/coupons/${encodeURIComponent(couponId)}`,
    request,
    payload: z.object({ code: z.string() }),
  });
}
