import { z } from "zod";
import { COUPON_KINDS, COUPON_SOURCES } from "../admin-coupons";
import { isoDateSchema, pageOf, usdSchema, withId } from "./common";

/* The back office's coupons (/v1/admin/coupons, ADR 026). */

/** One coupon, as staff see it. */
export const adminCouponSchema = withId({
  code: z.string(),
  kind: z.enum(COUPON_KINDS),
  amount: z.number().describe("percent (1-100) for a percent coupon, USD for a fixed one"),
  minAmount: usdSchema.describe("the cart total it needs, before the discount"),
  maxUses: z.number().int().nullable().describe("total uses; null: no limit"),
  usedCount: z.number().int().describe("uses so far (an unpaid order that ends gives its use back)"),
  perCustomerLimit: z.number().int().nullable(),
  expiresAt: isoDateSchema.nullable().describe("ISO 8601; it stops applying at that moment"),
  products: z
    .array(z.object({ _id: z.string(), title: z.string() }))
    .describe("the products it applies to; empty: any product"),
  active: z.boolean(),
  source: z.enum(COUPON_SOURCES).describe("`slots`: a prize of the slots game, for one customer"),
  ownerEmail: z.string().nullable().describe("the customer a slots prize belongs to"),
  createdAt: isoDateSchema,
});
export type AdminCoupon = z.infer<typeof adminCouponSchema>;

/** A page of coupons of one source (GET /v1/admin/coupons). */
export const couponPageSchema = pageOf(adminCouponSchema);
export type CouponPage = z.infer<typeof couponPageSchema>;

/** Every product a coupon can be restricted to, hidden ones marked (GET /v1/admin/coupons/products). */
export const couponProductChoicesSchema = z.array(
  z.object({ _id: z.string(), title: z.string(), active: z.boolean() }),
);
export type ProductChoice = z.infer<typeof couponProductChoicesSchema>[number];

/** A deleted coupon's code (DELETE /v1/admin/coupons/{couponId}). */
export const deletedCouponSchema = z.object({ code: z.string() });
