import { z } from "zod";
import { ORDER_STATUSES } from "../browser/order";
import { optionWithProductSchema } from "./catalogue";
import { publicIdSchema, usdSchema } from "./common";

/* The carts' answers: a guest's priced cookie lines (POST /v1/cart/quote) and a customer's server cart (/v1/cart/*). */

/** A cart line, priced. */
export const pricedLineSchema = z.object({
  quantity: z.number().int(),
  duration: z.number().int(),
  price: usdSchema.describe("unit price of the duration × quantity, USD"),
  soldOut: z.boolean().describe("stock is below the product's minimum: the line shows but cannot be bought"),
  option: optionWithProductSchema,
});
export type PricedLine = z.infer<typeof pricedLineSchema>;

/** A customer's server cart as it is now: every /v1/cart/* change answers it. */
export const cartSchema = z.object({ cartItems: z.array(pricedLineSchema), cartPrice: usdSchema });

/** The guest cookie cart priced (POST /v1/cart/quote). */
export const cartQuoteSchema = cartSchema.extend({
  dropped: z.array(publicIdSchema).describe("optionIds of lines that cannot be sold"),
});
export type CartQuote = z.infer<typeof cartQuoteSchema>;

/** The server cart after the guest cookie cart joined it at sign-in (POST /v1/cart/merge). */
export const mergedCartSchema = cartSchema.extend({
  skipped: z.array(publicIdSchema).describe("optionIds of lines that cannot be sold"),
});

/** A guest's order, and its lines once it ended unpaid, for the cookie cart to take back (POST /v1/cart/reclaim). */
export const reclaimedLinesSchema = z.object({
  status: z.enum(ORDER_STATUSES),
  cartItems: z.array(z.object({ optionId: publicIdSchema, duration: z.number().int(), quantity: z.number().int() })),
});

/** The cart's price after a coupon (POST /v1/cart/applyCoupon, /applyCouponPublic). */
export const couponPriceSchema = usdSchema.describe("the cart's price after the coupon, USD");
