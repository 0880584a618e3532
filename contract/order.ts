import { z } from "zod";

/* Order statuses, and the cart and order limits the API enforces and the cart and checkout forms show. */

export * from "./browser/order";
import { ORDER_STATUSES } from "./browser/order";

export const orderStatusSchema = z.enum(ORDER_STATUSES);

/** The most lines a cart may hold: bounds one quote's work and keeps the guest's cookie under 4 KB. */
export const CART_LINE_LIMIT = 50;
/** The most of one option a line may hold, whatever the product allows. */
export const QUANTITY_LIMIT = 999;
/** The longest warranty a line may name, in days. */
export const DURATION_MAX_DAYS = 36_500;
export const COUPON_MAX_LENGTH = 64;
export const MESSAGE_MAX_LENGTH = 2000;
/** Orders per page of the customer's order list. */
export const ORDERS_PAGE_SIZE = 10;

export const INVALID_COUPON = "Invalid coupon code";

/** An empty coupon is allowed: it removes the applied one (spec section 4). */
export const couponField = z.string().trim().max(COUPON_MAX_LENGTH, INVALID_COUPON).optional().default("");

export const orderMessageField = z
  .string()
  .trim()
  .max(MESSAGE_MAX_LENGTH, `The message to the admin is at most ${MESSAGE_MAX_LENGTH} characters`)
  .optional()
  .default("");
