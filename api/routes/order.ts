import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { badRequest } from "../errors";
import { jsonBody, ok } from "../http";
import { okOnce } from "../idempotent-answer";
import { requireUser } from "../middleware/auth";
import { requestIp } from "../request-ip";
import { ORDER_LOOKUP_MESSAGES, listCustomerOrders, readOrder, recentOrders } from "../services/order-views";
import { type CheckoutResult, PAYMENT_METHODS, checkout, guestCheckout } from "../services/payments";
import { hitRateLimit, subjectKey } from "../services/rate-limit";
import { MAX_CART_LINES, cartLineSchema } from "./cart";

/** Order ids are unguessable, and this limit keeps anyone from trying many per address. */
const ORDER_LOOKUP_RULE = { name: "order-lookup:ip", limit: 60, windowMs: 15 * 60_000 };

const createSchema = z.object({
  coupon: z.string().max(64, "Invalid coupon code").optional().default(""),
  paymentMethod: z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Please choose a payment method" }) }),
  message: z.string().max(2000, "The message to the admin is at most 2000 characters").optional().default(""),
  isGuest: z.boolean().optional().default(false),
  // Guest checkout in one call (with isGuest): the account's email, the cookie cart and the human check.
  email: z.string().trim().max(254, "Invalid email").email("Invalid email").optional(),
  cartItems: z.array(cartLineSchema).max(MAX_CART_LINES, `A cart holds at most ${MAX_CART_LINES} lines`).optional(),
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
  status: z
    .enum(["pending", "completed", "partiallyComplete", "expired", "cancelled"])
    .optional()
    .or(z.literal("").transform(() => undefined)),
});

export const orderRoutes = new Hono<ApiEnv>()
  .post("/create", async (c) => {
    const input = await jsonBody(c, createSchema);
    const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
    const order = {
      coupon: input.coupon,
      paymentMethod: input.paymentMethod,
      message: input.message.trim(),
      clientIp: requestIp(c),
    };
    const answer = async (result: CheckoutResult) => ({
      status: 201 as const,
      message: result.paymentUrl ? "Order created. Redirecting to payment…" : "Thank you! Your order is complete.",
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
  })
  .get("/recent", async (c) => ok(c, await recentOrders(c.get("db"))))
  .get("/read/:id", async (c) => {
    const id = c.req.param("id");
    if (!PUBLIC_ID_PATTERN.test(id)) throw badRequest(ORDER_LOOKUP_MESSAGES.invalidId);
    await hitRateLimit(c.get("db"), ORDER_LOOKUP_RULE, requestIp(c), { scale: c.get("config").rateLimitScale });
    return ok(c, await readOrder(c.get("db"), id));
  })
  .post("/read", async (c) => {
    const user = requireUser(c);
    const query = await jsonBody(c, listSchema);
    return ok(c, await listCustomerOrders(c.get("db"), user.id, query));
  });
