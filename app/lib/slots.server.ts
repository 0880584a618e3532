import type { AppLoadContext } from "@remix-run/node";
import {
  type SlotCoupon,
  slotCouponListSchema,
  spinBalanceSchema,
  spinResultSchema,
  spinSchema,
} from "../../contract/answers/spinwheel";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of the daily slots game: the spin balance, a spin, a spin read back for its result page,
 * and the customer's won coupons. A refused spin (none left) comes back as an ApiResult for a toast.
 */

export type { SlotCoupon };

export function readSpinBalance(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/spinwheel/spins", request, answer: spinBalanceSchema });
}

export function spinOnce(context: AppLoadContext, request: Request) {
  return apiCall(context, { path: "/v1/spinwheel/spin", request, body: {}, answer: spinResultSchema });
}

/** One of the customer's spins; another's or an unknown id throws the 404 page. */
export function readSpin(context: AppLoadContext, request: Request, spinId: string) {
  return apiPayload(context, {
    path: `/v1/spinwheel/spin/${encodeURIComponent(spinId)}`,
    request,
    answer: spinSchema,
  });
}

export async function listSlotCoupons(context: AppLoadContext, request: Request): Promise<SlotCoupon[]> {
  const answer = await apiPayload(context, {
    path: "/v1/spinwheel/coupons",
    request,
    answer: slotCouponListSchema,
  });
  return answer.records;
}
