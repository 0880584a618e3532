import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { jsonBody, ok } from "../http";
import { quoteCart } from "../services/cart";

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

export const cartRoutes = new Hono<ApiEnv>().post("/quote", async (c) => {
  const { cartItems } = await jsonBody(c, quoteSchema);
  const quote = await quoteCart(c.get("db"), cartItems);
  return ok(c, { cartItems: quote.cartItems, cartPrice: quote.cartPrice, dropped: quote.dropped });
});
