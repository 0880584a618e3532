import type { AppLoadContext } from "@remix-run/node";
import type { CouponInput } from "../../../contract/admin-coupons";
import { adminCouponSchema } from "../../../contract/answers/admin-coupons";
import { apiCall } from "~/lib/api.server";

/* The new coupon page's /v1 client: create one, once per form (ADR 026). */

export function createCoupon(context: AppLoadContext, request: Request, input: CouponInput, idempotencyKey?: string) {
  return apiCall(context, {
    path: "/v1/admin/coupons",
    request,
    body: input,
    answer: adminCouponSchema,
    idempotencyKey,
  });
}
