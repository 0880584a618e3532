import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { SLOT_SYMBOLS, type SlotSymbolId } from "../../contract/slots";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of the daily slots game: the spin balance, a spin, a spin read back for its result page,
 * and the customer's won coupons. A refused spin (none left) comes back as an ApiResult for a toast.
 */

const symbolIds = SLOT_SYMBOLS.map((symbol) => symbol.id) as [SlotSymbolId, ...SlotSymbolId[]];

const balanceSchema = z.object({
  spinsAvailable: z.number().int(),
  maxSpins: z.number().int(),
  nextSpinAt: z.string().nullable(),
});
export type SpinBalance = z.infer<typeof balanceSchema>;

const spinSchema = z.object({
  spinId: z.string(),
  stops: z.array(z.number().int()),
  symbols: z.array(z.enum(symbolIds)),
  outcome: z.enum(["jackpot", "pair", "none"]),
  discount: z.number().int(),
  couponCode: z.string(),
  couponExpiresAt: z.string(),
  couponUsed: z.boolean(),
});
export type SpinResult = z.infer<typeof spinSchema>;

const couponSchema = z.object({ code: z.string(), discount: z.number().int(), expiresAt: z.string() });
export type SlotCoupon = z.infer<typeof couponSchema>;

export function readSpinBalance(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/spinwheel/spins", request, payload: balanceSchema });
}

export function spinOnce(context: AppLoadContext, request: Request) {
  return apiCall(context, { path: "/v1/spinwheel/spin", request, body: {}, payload: spinSchema });
}

/** One of the customer's spins; another's or an unknown id throws the 404 page. */
export function readSpin(context: AppLoadContext, request: Request, spinId: string) {
  return apiPayload(context, {
    path: `/v1/spinwheel/spin/${encodeURIComponent(spinId)}`,
    request,
    payload: spinSchema,
  });
}

export async function listSlotCoupons(context: AppLoadContext, request: Request): Promise<SlotCoupon[]> {
  const answer = await apiPayload(context, {
    path: "/v1/spinwheel/coupons",
    request,
    payload: z.object({ records: z.array(couponSchema) }),
  });
  return answer.records;
}
