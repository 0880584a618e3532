import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { badRequest } from "../errors";
import { jsonBody, ok } from "../http";
import { requireUser } from "../middleware/auth";
import { quoteCart } from "../services/cart";
import { applyCouponToItems, applyCouponToServerCart } from "../services/coupons";
import {
  CART_MESSAGES,
  addToServerCart,
  clearServerCart,
  mergeIntoServerCart,
  readServerCart,
  removeFromServerCart,
  updateServerCartLine,
} from "../services/server-cart";

/** The most lines a cart may hold; also bounds the work one quote request can ask for. */
export const MAX_CART_LINES = 50;

/** One cart line as clients send it; the server cart's add and update can reuse it. */
export const cartLineSchema = z.object({
  optionId: z.string().regex(PUBLIC_ID_PATTERN, "Invalid option id"),
  duration: z
    .number({ invalid_type_error: "Duration must be a number of days" })
    .int("Duration must be whole days")
    .positive("Duration must be positive")
    .max(36_500, "Duration is too long"),
  quantity: z
    .number({ invalid_type_error: "Quantity must be a number" })
    .int("Quantity must be a whole number")
    .min(1, "Quantity must be at least 1")
    .max(999, "Quantity must be at most 999"),
});

const quoteSchema = z.object({
  cartItems: z.array(cartLineSchema).max(MAX_CART_LINES, `A cart holds at most ${MAX_CART_LINES} lines`),
});

const updateSchema = cartLineSchema.pick({ optionId: true, quantity: true });
const couponSchema = z.object({ coupon: z.string().max(64, "Invalid coupon code").optional().default("") });
const publicCouponSchema = quoteSchema.extend({ coupon: couponSchema.shape.coupon });

export const cartRoutes = new Hono<ApiEnv>()
  .post("/quote", async (c) => {
    const { cartItems } = await jsonBody(c, quoteSchema);
    const quote = await quoteCart(c.get("db"), cartItems);
    return ok(c, { cartItems: quote.cartItems, cartPrice: quote.cartPrice, dropped: quote.dropped });
  })
  // The signed-in customer's server cart. Every call answers the cart as it is now.
  .get("/read", async (c) => {
    const user = requireUser(c);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice });
  })
  .post("/add", async (c) => {
    const user = requireUser(c);
    const item = await jsonBody(c, cartLineSchema);
    await addToServerCart(c.get("db"), user.id, item);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, CART_MESSAGES.added);
  })
  .put("/update", async (c) => {
    const user = requireUser(c);
    const input = await jsonBody(c, updateSchema);
    await updateServerCartLine(c.get("db"), user.id, input);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, "Quantity updated");
  })
  .delete("/remove/:optionId", async (c) => {
    const user = requireUser(c);
    const optionId = c.req.param("optionId");
    if (!PUBLIC_ID_PATTERN.test(optionId)) throw badRequest("Invalid option id");
    await removeFromServerCart(c.get("db"), user.id, optionId);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, "Item removed from cart");
  })
  .post("/clear", async (c) => {
    const user = requireUser(c);
    await clearServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: [], cartPrice: 0 }, "Cart cleared");
  })
  // Our addition: the guest cookie cart joins the account's cart in one call at sign-in.
  .post("/merge", async (c) => {
    const user = requireUser(c);
    const { cartItems } = await jsonBody(c, quoteSchema);
    const { skipped } = await mergeIntoServerCart(c.get("db"), user.id, cartItems);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice, skipped }, "Cart merged");
  })
  // payload: the cart's price after the coupon (USD); an empty coupon resets it to cartPrice.
  .post("/applyCoupon", async (c) => {
    const user = requireUser(c);
    const { coupon } = await jsonBody(c, couponSchema);
    const priced = await applyCouponToServerCart(c.get("db"), user.id, coupon);
    return ok(c, priced.price, priced.message);
  })
  .post("/applyCouponPublic", async (c) => {
    const { cartItems, coupon } = await jsonBody(c, publicCouponSchema);
    const priced = await applyCouponToItems(c.get("db"), cartItems, coupon, c.get("user")?.id ?? null);
    return ok(c, priced.price, priced.message);
  });
