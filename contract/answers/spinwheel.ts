import { z } from "zod";
import { MAX_SAVED_SPINS, REEL_STOPS, SLOT_COUPON_DAYS, SLOT_SYMBOLS, type SlotSymbolId } from "../slots";
import { isoDateSchema, publicIdSchema } from "./common";

/* The daily slots game's answers (/v1/spinwheel/*): the spins held, a spin and its coupon, the coupons won. */

const symbolIds = SLOT_SYMBOLS.map((symbol) => symbol.id) as [SlotSymbolId, ...SlotSymbolId[]];

/** GET /v1/spinwheel/spins. */
export const spinBalanceSchema = z.object({
  spinsAvailable: z.number().int().describe(`0 to ${MAX_SAVED_SPINS}`),
  maxSpins: z.number().int(),
  nextSpinAt: isoDateSchema
    .nullable()
    .describe("the next UTC midnight, when one more accrues; null when the spins are at the cap"),
});
export type SpinBalance = z.infer<typeof spinBalanceSchema>;

/** A spin read back (GET /v1/spinwheel/spin/{spinId}): its reels and the coupon it won. */
export const spinSchema = z.object({
  spinId: publicIdSchema,
  stops: z
    .array(z.number().int())
    .describe(`each reel's stop, 0 to ${REEL_STOPS - 1}, drawn from the one weighted table`),
  symbols: z.array(z.enum(symbolIds)).describe("the symbol at each stop, left to right"),
  outcome: z
    .enum(["jackpot", "pair", "none"])
    .describe("three equal (30%), exactly two equal (15%) or all different (10%)"),
  discount: z.number().int().describe("percent off, the coupon's amount"),
  couponCode: z.string(),
  couponExpiresAt: isoDateSchema.describe(`ISO 8601; ${SLOT_COUPON_DAYS} days after the spin`),
  couponUsed: z.boolean().describe("an order (paid, or pending payment) holds its one use"),
  createdAt: isoDateSchema,
});
export type Spin = z.infer<typeof spinSchema>;

/** POST /v1/spinwheel/spin: the spin just drawn, and the spins left. */
export const spinResultSchema = spinSchema.extend({
  spinsRemaining: z.number().int().describe("spins left after this one"),
});
export type SpinResult = z.infer<typeof spinResultSchema>;

/** A won coupon that can still be used. */
export const slotCouponSchema = z.object({
  code: z.string(),
  discount: z.number().int().describe("percent off"),
  expiresAt: isoDateSchema,
});
export type SlotCoupon = z.infer<typeof slotCouponSchema>;
/** GET /v1/spinwheel/coupons, the soonest to expire first. */
export const slotCouponListSchema = z.object({ records: z.array(slotCouponSchema) });
