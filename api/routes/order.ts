import { z } from "@hono/zod-openapi";
import { EMAIL_MAX_LENGTH, emailField } from "../../contract/account";
import {
  keyRedeemedSchema,
  orderCreatedSchema,
  orderPageSchema,
  orderSchema,
  recentOrderListSchema,
} from "../../contract/answers/order";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { CART_LINE_LIMIT, couponField, orderMessageField, orderStatusSchema } from "../../contract/order";
import { badRequest } from "../errors";
import { ok } from "../http";
import { okOnce } from "../idempotent-answer";
import { requireUser } from "../middleware/auth";
import {
  SIGNED_IN_FAILURES,
  UNAUTHORIZED,
  answers,
  apiRouter,
  declareRoute,
  idempotencyKeyHeader,
  jsonBody,
  optionallySignedIn,
  pathParams,
  signedInRoute,
} from "../openapi";
import { requestIp } from "../request-ip";
import { ORDER_LOOKUP_MESSAGES, listCustomerOrders, readOrder, recentOrders } from "../services/orders/views";
import { type CheckoutResult, PAYMENT_METHODS, checkout, guestCheckout } from "../services/payments/checkout";
import { hitRateLimit, subjectKey } from "../services/guards/rate-limit";
import { REDEEM_MESSAGES, redeemKey } from "../services/keys/redeem-keys";
import { REDEEM_KEY_INVALID, keyField } from "../../contract/redeem-key";
import { cartLineSchema } from "./cart";
import { shownCartField } from "../../contract/shown-cart";

/** Order ids are unguessable, and this limit keeps anyone from trying many per address. */
const ORDER_LOOKUP_RULE = { name: "order-lookup:ip", limit: 60, windowMs: 15 * 60_000 };

const createSchema = z.object({
  coupon: couponField,
  shownCart: shownCartField.optional(),
  paymentMethod: z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Please choose a payment method" }) }),
  message: orderMessageField,
  isGuest: z.boolean().optional().default(false),
  // Guest checkout in one call (with isGuest): the account's email, the cookie cart and the human check.
  email: z.string().trim().max(EMAIL_MAX_LENGTH, "Invalid email").email("Invalid email").optional(),
  cartItems: z.array(cartLineSchema).max(CART_LINE_LIMIT, `A cart holds at most ${CART_LINE_LIMIT} lines`).optional(),
  "g-recaptcha-response": z.string().max(8192).optional(),
});

const listSchema = z.object({
  page: z.coerce
    .number()
    .int("Page must be a whole number")
    .min(1, "Page starts at 1")
    .max(100_000)
    .optional()
    .default(1),
  search: z.string().max(200, "Search is too long").optional().default(""),
  sortBy: z.enum(["createdAt", "updatedAt", "price"]).optional().default("createdAt"),
  status: orderStatusSchema.optional().or(z.literal("").transform(() => undefined)),
});

const redeemSchema = z.object({
  email: emailField.openapi({ description: "the account the order is for; made as in guest checkout if none" }),
  key: keyField.openapi({
    example: "7KQ2M-9XHT4-P3WZC-0BD5R",
    description: "any letter case; dashes and spaces ignored",
  }),
  "g-recaptcha-response": z.string().max(8192).optional().openapi({ description: "the human-check answer" }),
});

const ORDERS = ["Orders"];

export const orderRoutes = apiRouter()
  .openapi(
    declareRoute(ORDERS, {
      method: "post",
      path: "/create",
      summary: "Check out the customer's server cart, or a guest's cookie cart (isGuest, email, cartItems)",
      description:
        "A guest checkout (`isGuest` with `email`) needs no token: it creates the account and the order in one " +
        "transaction and needs the human-check answer; otherwise the signed-in customer's server cart is ordered.",
      security: optionallySignedIn,
      request: { headers: idempotencyKeyHeader, body: jsonBody(createSchema) },
      responses: answers(201, orderCreatedSchema, "the order: paid (balance, $0) or pending (hosted gateway)", {
        400: "bad input, empty cart, coupon refused, payment method not available, human check failed (guest)",
        ...UNAUTHORIZED,
        403: "the email is refused at checkout (blocklist, or a blocked account's): `errors.email`",
        409:
          "not enough stock, coupon used up, insufficient balance, the same Idempotency-Key still in progress, " +
          "the cart is not the one `shownCart` describes (`errors.shownCart`: show the cart again); " +
          "guest: a line no longer sold, or the email has an account (`errors.email`: offer Sign In)",
        422: "the Idempotency-Key was used with another body",
        429: "too many unpaid orders; guest: too many registrations from this address or email",
        503:
          "the payment provider cannot be reached (the order is cancelled and its lines go back to the cart; " +
          "a guest's account and order are removed)",
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
      const order = {
        coupon: input.coupon,
        shownCart: input.shownCart,
        paymentMethod: input.paymentMethod,
        message: input.message.trim(),
        clientIp: requestIp(c),
      };
      const answer = async (result: CheckoutResult) => ({
        status: 201 as const,
        message: result.paymentUrl
          ? "Order created. Redirecting to payment…"
          : result.status === "processing"
            ? "Thank you! Your order is paid and being processed."
            : "Thank you! Your order is complete.",
        payload: result,
      });
      // The human-check answer proves a person sent it; it is not part of what is being asked for.
      const { "g-recaptcha-response": humanCheck, ...request } = input;
      if (input.isGuest && input.email !== undefined) {
        const { email } = input;
        const guest = { ...order, email, cartItems: input.cartItems ?? [], humanCheck };
        return okOnce(c, { scope: `guest:${subjectKey(email)}`, route: "order/create", body: request }, async () =>
          answer(await guestCheckout(deps, guest)),
        );
      }
      const user = requireUser(c);
      return okOnce(c, { scope: `user:${user.id}`, route: "order/create", body: request }, async () =>
        answer(await checkout(deps, { ...order, userId: user.id })),
      );
    },
  )
  .openapi(
    declareRoute(ORDERS, {
      method: "post",
      path: "/redeemKey",
      summary: "Redeem a key: a completed order (paymentMethod 'key', price 0) for the account with that email",
      description:
        "The key pays for its option, warranty duration and quantity once. The order is delivered at once and " +
        "its mail sent; open it at /find-order?id={orderId}.",
      request: { body: jsonBody(redeemSchema) },
      responses: answers(201, keyRedeemedSchema, "the completed order", {
        400: `bad input, human check failed, or \`${REDEEM_KEY_INVALID}\` (unknown, used, revoked or expired: one answer)`,
        403: "the email is refused at checkout (blocklist, or a blocked account's): `errors.email`",
        409: "the plan is sold out or no longer sold: the key is NOT used and can be redeemed later",
        429: "more than 10 attempts in 15 minutes from this address, or too many new accounts",
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
      const redeemed = await redeemKey(deps, {
        email: input.email,
        key: input.key,
        humanCheck: input["g-recaptcha-response"],
        clientIp: requestIp(c),
      });
      return ok(c, redeemed, REDEEM_MESSAGES.redeemed, 201);
    },
  )
  .openapi(
    declareRoute(ORDERS, {
      method: "get",
      path: "/recent",
      summary: "The latest paid orders, masked, for the social-proof toast",
      responses: answers(200, recentOrderListSchema, "up to 20 orders"),
    }),
    async (c) => ok(c, await recentOrders(c.get("db"))),
  )
  .openapi(
    declareRoute(ORDERS, {
      method: "get",
      path: "/read/{id}",
      summary: "One order, for anyone holding its id",
      request: { params: pathParams("id") },
      responses: answers(200, orderSchema, "the order", {
        400: "`Invalid order id`",
        404: "`Order not found`",
        429: "more than 60 lookups in 15 minutes from this address",
      }),
    }),
    async (c) => {
      const id = c.req.param("id");
      if (!PUBLIC_ID_PATTERN.test(id)) throw badRequest(ORDER_LOOKUP_MESSAGES.invalidId);
      await hitRateLimit(c.get("db"), ORDER_LOOKUP_RULE, requestIp(c), { scale: c.get("config").rateLimitScale });
      return ok(c, await readOrder(c.get("db"), id));
    },
  )
  .openapi(
    signedInRoute(ORDERS, {
      method: "post",
      path: "/read",
      summary: "The customer's orders, newest first, 10 a page",
      request: { body: jsonBody(listSchema) },
      responses: answers(200, orderPageSchema, "a page of orders", {
        ...SIGNED_IN_FAILURES,
      }),
    }),
    async (c) => {
      return ok(c, await listCustomerOrders(c.get("db"), requireUser(c).id, c.req.valid("json")));
    },
  );
