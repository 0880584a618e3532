import type { AppLoadContext } from "@remix-run/node";
import type { CouponInput } from "../../contract/admin-coupons";
import {
  adminCouponSchema,
  couponPageSchema,
  couponProductChoicesSchema,
  deletedCouponSchema,
} from "../../contract/answers/admin-coupons";
import { type ListParams, adminPath, readListPage } from "./admin-list.server";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's coupons (ADR 026). */

export type { AdminCoupon, ProductChoice } from "../../contract/answers/admin-coupons";

export function listCoupons(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/coupons", query, answer: couponPageSchema });
}

export function readCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiPayload(context, { path: adminPath("coupons", couponId), request, answer: adminCouponSchema });
}

export function listProductChoices(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/coupons/products", request, answer: couponProductChoicesSchema });
}

export function createCoupon(context: AppLoadContext, request: Request, input: CouponInput, idempotencyKey?: string) {
  return apiCall(context, {
    path: "/v1/admin/coupons",
    request,
    body: input,
    answer: adminCouponSchema,
    idempotencyKey,
  });
}

export function updateCoupon(context: AppLoadContext, request: Request, couponId: string, input: CouponInput) {
  return apiCall(context, {
    method: "PUT",
    path: adminPath("coupons", couponId),
    request,
    body: input,
    answer: adminCouponSchema,
  });
}

export function deactivateCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiCall(context, {
    path: adminPath("coupons", couponId, "/deactivate"),
    request,
    body: {},
    answer: adminCouponSchema,
  });
}

export function deleteCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: adminPath("coupons", couponId),
    request,
    answer: deletedCouponSchema,
  });
}
