import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { badRequest } from "../errors";
import { jsonBody, ok } from "../http";
import { requireUser } from "../middleware/auth";
import { requestIp } from "../request-ip";
import { ORDER_LOOKUP_MESSAGES, listCustomerOrders, readOrder, recentOrders } from "../services/order-views";
import { PAYMENT_METHODS, checkout } from "../services/payments";
import { hitRateLimit } from "../services/rate-limit";

/** Order ids are unguessable, and this limit keeps anyone from trying many per address. */
const ORDER_LOOKUP_RULE = { name: "order-lookup:ip", limit: 60, windowMs: 15 * 60_000 };

const createSchema = z.object({
  coupon: z.string().max(64, "Invalid coupon code").optional().default(""),
  paymentMethod: z.enum(PAYMENT_METHODS, { errorMap: () => ({ message: "Please choose a payment method" }) }),
  message: z.string().max(2000, "The message to the admin is at most 2000 characters").optional().default(""),
  isGuest: z.boolean().optional().default(false),
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
    const user = requireUser(c);
    const input = await jsonBody(c, createSchema);
    const result = await checkout(
      { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
      {
        userId: user.id,
        coupon: input.coupon,
        paymentMethod: input.paymentMethod,
        message: input.message.trim(),
        clientIp: requestIp(c),
      },
    );
    return ok(
      c,
      result,
      result.paymentUrl ? "Order created. Redirecting to payment…" : "Thank you! Your order is complete.",
      201,
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
