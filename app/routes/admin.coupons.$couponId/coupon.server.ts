import type { AppLoadContext } from "@remix-run/node";
import type { CouponInput } from "../../../contract/admin-coupons";
import {
  adminCouponSchema,
  couponProductChoicesSchema,
  deletedCouponSchema,
} from "../../../contract/answers/admin-coupons";
import { adminPath } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* A coupon's page's /v1 client: read, edit, deactivate, delete; the products a coupon can name (ADR 026). */

export type { AdminCoupon, ProductChoice } from "../../../contract/answers/admin-coupons";

export function readCoupon(context: AppLoadContext, request: Request, couponId: string) {
  return apiPayload(context, { path: adminPath("coupons", couponId), request, answer: adminCouponSchema });
}

export function listProductChoices(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/coupons/products", request, answer: couponProductChoicesSchema });
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
