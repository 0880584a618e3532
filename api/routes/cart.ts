import { createRoute, z } from "@hono/zod-openapi";
import {
  cartSchema,
  couponPriceSchema,
  mergedCartSchema,
  cartQuoteSchema,
  reclaimedLinesSchema,
} from "../../contract/answers/cart";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { CART_LINE_LIMIT, couponField, DURATION_MAX_DAYS, QUANTITY_LIMIT } from "../../contract/order";
import { badRequest, notFound } from "../errors";
import { ok } from "../http";
import { okOnce } from "../idempotent-answer";
import { requireUser } from "../middleware/auth";
import {
  BAD_INPUT,
  NO_BODY,
  UNAUTHORIZED,
  answers,
  apiRouter,
  declareRoute,
  idempotencyKeyHeader,
  jsonBody,
  optionallySignedIn,
  pathParams,
  signedIn,
  signedInRoute,
} from "../openapi";
import { requestIp } from "../request-ip";
import { quoteCart } from "../services/cart/quote";
import { returnedLinesOf } from "../services/order-settlement";
import { hitRateLimit } from "../services/guards/rate-limit";
import { applyCouponToItems, applyCouponToServerCart } from "../services/coupons/discounts";
import {
  CART_MESSAGES,
  addToServerCart,
  clearServerCart,
  mergeIntoServerCart,
  readServerCart,
  removeFromServerCart,
  updateServerCartLine,
} from "../services/cart/server-cart";

/** One cart line as clients send it; the server cart's add and update can reuse it. */
export const cartLineSchema = z.object({
  optionId: z.string().regex(PUBLIC_ID_PATTERN, "Invalid option id"),
  duration: z
    .number({ invalid_type_error: "Duration must be a number of days" })
    .int("Duration must be whole days")
    .positive("Duration must be positive")
    .max(DURATION_MAX_DAYS, "Duration is too long"),
  quantity: z
    .number({ invalid_type_error: "Quantity must be a number" })
    .int("Quantity must be a whole number")
    .min(1, "Quantity must be at least 1")
    .max(QUANTITY_LIMIT, `Quantity must be at most ${QUANTITY_LIMIT}`),
});

const quoteSchema = z.object({
  cartItems: z.array(cartLineSchema).max(CART_LINE_LIMIT, `A cart holds at most ${CART_LINE_LIMIT} lines`),
});

const reclaimSchema = z.object({ orderId: z.string().regex(PUBLIC_ID_PATTERN, "Invalid order id") });
/** As the order lookup: order ids are unguessable, and a guest's browser asks only while its order is open. */
const RECLAIM_RULE = { name: "cart-reclaim:ip", limit: 120, windowMs: 15 * 60_000 };

const updateSchema = cartLineSchema.pick({ optionId: true, quantity: true });
const couponSchema = z.object({ coupon: couponField });
const publicCouponSchema = quoteSchema.extend({ coupon: couponSchema.shape.coupon });

const CART = ["Cart"];
const userCart = (summary: string, failures = {}) =>
  ({
    tags: CART,
    summary,
    security: signedIn,
    responses: answers(200, cartSchema, "the cart now", { ...UNAUTHORIZED, ...failures }),
  }) as const;

export const cartRoutes = apiRouter()
  .openapi(
    declareRoute(CART, {
      method: "post",
      path: "/quote",
      summary: "Price cart lines (the guest cookie cart)",
      request: { body: jsonBody(quoteSchema) },
      responses: answers(200, cartQuoteSchema, "the priced lines", BAD_INPUT),
    }),
    async (c) => {
      const { cartItems } = c.req.valid("json");
      const quote = await quoteCart(c.get("db"), cartItems);
      return ok(c, { cartItems: quote.cartItems, cartPrice: quote.cartPrice, dropped: quote.dropped });
    },
  )
  // The signed-in customer's server cart. Every call answers the cart as it is now.
  .openapi(createRoute({ method: "get", path: "/read", ...userCart("The customer's cart") }), async (c) => {
    const user = requireUser(c);
    const cart = await readServerCart(c.get("db"), user.id);
    return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice });
  })
  .openapi(
    createRoute({
      method: "post",
      path: "/add",
      request: { body: jsonBody(cartLineSchema) },
      ...userCart("Add a line (same option and duration: quantities add up)", {
        ...BAD_INPUT,
        404: "`Option not found`",
        409: "`This option is out of stock`",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const cart = await addToServerCart(c.get("db"), user.id, c.req.valid("json"));
      return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, CART_MESSAGES.added);
    },
  )
  .openapi(
    createRoute({
      method: "put",
      path: "/update",
      request: { body: jsonBody(updateSchema) },
      ...userCart("Set a line's quantity (refused, not clamped, when out of bounds)", {
        ...BAD_INPUT,
        404: "`This item is not in your cart`",
        409: "`Only N left in stock`",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      await updateServerCartLine(c.get("db"), user.id, c.req.valid("json"));
      const cart = await readServerCart(c.get("db"), user.id);
      return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, "Quantity updated");
    },
  )
  .openapi(
    createRoute({
      method: "delete",
      path: "/remove/{optionId}",
      request: { params: pathParams("optionId") },
      ...userCart("Remove a line (an absent line is not an error)", { 400: "`Invalid option id`" }),
    }),
    async (c) => {
      const user = requireUser(c);
      const optionId = c.req.param("optionId");
      if (!PUBLIC_ID_PATTERN.test(optionId)) throw badRequest("Invalid option id");
      await removeFromServerCart(c.get("db"), user.id, optionId);
      const cart = await readServerCart(c.get("db"), user.id);
      return ok(c, { cartItems: cart.cartItems, cartPrice: cart.cartPrice }, "Item removed from cart");
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/clear",
      request: { body: NO_BODY },
      ...userCart("Empty the cart and forget its coupon"),
    }),
    async (c) => {
      const user = requireUser(c);
      await clearServerCart(c.get("db"), user.id);
      return ok(c, { cartItems: [], cartPrice: 0 }, "Cart cleared");
    },
  )
  // Our addition: the guest cookie cart joins the account's cart in one call at sign-in.
  .openapi(
    signedInRoute(CART, {
      method: "post",
      path: "/merge",
      summary: "Add the guest cookie cart's lines at sign-in, in one transaction",
      description:
        "Quantities add up, so a client sends an Idempotency-Key that names the guest cart (the store's pages send " +
        "a digest of its cookies): a second merge with that key, even at the same moment, changes nothing and " +
        "answers the first merge's answer.",
      request: { headers: idempotencyKeyHeader, body: jsonBody(quoteSchema) },
      responses: answers(200, mergedCartSchema, "the cart now; `skipped` lists lines that cannot be sold", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        409: "a merge with the same Idempotency-Key is still in progress",
        422: "the Idempotency-Key was used with other lines",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const { cartItems } = c.req.valid("json");
      return okOnce(c, { scope: `user:${user.id}`, route: "cart/merge", body: { cartItems } }, async () => {
        const { skipped } = await mergeIntoServerCart(c.get("db"), user.id, cartItems);
        const cart = await readServerCart(c.get("db"), user.id);
        return {
          status: 200 as const,
          message: "Cart merged",
          payload: { cartItems: cart.cartItems, cartPrice: cart.cartPrice, skipped },
        };
      });
    },
  )
  // Our addition (ADR 019): a guest's cookie cart takes back the lines of its order that ended unpaid.
  .openapi(
    declareRoute(CART, {
      method: "post",
      path: "/reclaim",
      summary: "The lines of a guest's order that was cancelled or expired, for its cookie cart",
      request: { body: jsonBody(reclaimSchema) },
      responses: answers(
        200,
        reclaimedLinesSchema,
        "the order's status; `cartItems` holds its lines once it ended unpaid (cancelled or expired)",
        { ...BAD_INPUT, 404: "`Order not found`", 429: "too many lookups from this address" },
      ),
    }),
    async (c) => {
      await hitRateLimit(c.get("db"), RECLAIM_RULE, requestIp(c), { scale: c.get("config").rateLimitScale });
      const returned = await returnedLinesOf(c.get("db"), c.req.valid("json").orderId);
      if (!returned) throw notFound("Order not found");
      return ok(c, returned);
    },
  )
  // payload: the cart's price after the coupon (USD); an empty coupon resets it to cartPrice.
  .openapi(
    signedInRoute(CART, {
      method: "post",
      path: "/applyCoupon",
      summary: "Price the customer's cart with a coupon (an empty coupon removes it)",
      request: { body: jsonBody(couponSchema) },
      responses: answers(200, couponPriceSchema, "the price; the message says what was saved", {
        400: "coupon refused (unknown, expired, minimum amount, products)",
        ...UNAUTHORIZED,
        409: "coupon used up, or already used by this customer",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const priced = await applyCouponToServerCart(c.get("db"), user.id, c.req.valid("json").coupon);
      return ok(c, priced.price, priced.message);
    },
  )
  .openapi(
    declareRoute(CART, {
      method: "post",
      path: "/applyCouponPublic",
      summary: "Price a guest cart with a coupon",
      security: optionallySignedIn,
      request: { body: jsonBody(publicCouponSchema) },
      responses: answers(200, couponPriceSchema, "the price; the message says what was saved", {
        400: "bad input, or coupon refused",
        409: "coupon used up, or already used by this customer",
      }),
    }),
    async (c) => {
      const { cartItems, coupon } = c.req.valid("json");
      const priced = await applyCouponToItems(c.get("db"), cartItems, coupon, c.get("user")?.id ?? null);
      return ok(c, priced.price, priced.message);
    },
  );
