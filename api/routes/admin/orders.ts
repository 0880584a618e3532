import { createRoute, z } from "@hono/zod-openapi";
import type { Context } from "hono";
import {
  ADMIN_ORDERS_PAGE_SIZE,
  ORDER_DATE_PATTERN,
  ORDER_FILTER_MAX_LENGTH,
  confirmationReasonField,
  confirmationReferenceField,
  deliveryCredentialsField,
  orderLineIdField,
  orderOptionIdField,
  paymentIdField,
} from "../../../contract/admin-orders";
import { orderStatusSchema } from "../../../contract/order";
import { credentialIndexField } from "../../../contract/request";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { centsToUsd } from "../../../contract/money";
import type { ApiEnv } from "../../context";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import {
  BAD_INPUT,
  UNAUTHORIZED,
  answers,
  apiRouter,
  jsonBody,
  pagerSchema,
  pathParams,
  publicIdSchema,
  usdSchema,
} from "../../openapi";
import {
  cancelPendingOrder,
  confirmPaymentByHand,
  deliverManualLine,
  endCredentialWarranty,
  refundToBalance,
  resendOrderMail,
} from "../../services/admin-order-actions";
import { ADMIN_ORDER_NOT_FOUND, readAdminOrder, searchOrders, viewOrderCredentials } from "../../services/admin-orders";
import { STAFF_ONLY } from "./staff";

/*
 * /v1/admin/orders (ADR 028): every staff role searches and reads orders and may ask to see an order's
 * credentials (audited); owners and managers act on them (ending a credential's warranty included). Each action answers 409 when the order's state
 * does not allow it any more, so a repeat (a double click, a second staff member) changes nothing.
 */

const ADMIN = ["Back office"];

/** A malformed id names no order: the same 404 as an unknown one. */
function orderIdFrom(c: Context<ApiEnv>): string {
  const id = c.req.param("orderId") ?? "";
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(ADMIN_ORDER_NOT_FOUND);
  return id;
}

const depsOf = (c: Context<ApiEnv>) => ({ db: c.get("db"), config: c.get("config") });

const queryText = (name: string, description: string) =>
  z
    .string()
    .trim()
    .max(ORDER_FILTER_MAX_LENGTH, "Filter is too long")
    .default("")
    .openapi({ param: { name, in: "query" }, description });
const dayParam = (name: string, description: string) =>
  z
    .string()
    .trim()
    .regex(ORDER_DATE_PATTERN, "Use a date as YYYY-MM-DD")
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), "Use a date as YYYY-MM-DD")
    .or(z.literal(""))
    .default("")
    .openapi({ param: { name, in: "query" }, description });

const searchQuery = z.object({
  page: z.coerce
    .number()
    .int("Page must be a whole number")
    .min(1, "Page starts at 1")
    .max(100_000)
    .default(1)
    .openapi({ param: { name: "page", in: "query" } }),
  order: queryText("order", "an order id (exact)"),
  email: queryText("email", "the start of the order's email, any letter case"),
  product: queryText("product", "part of a product title on the order"),
  status: orderStatusSchema
    .or(z.literal("").transform(() => undefined))
    .optional()
    .openapi({ param: { name: "status", in: "query" } }),
  gateway: queryText("gateway", "how it was paid: a gateway name, `balance` or `key` (exact)"),
  from: dayParam("from", "first UTC day, YYYY-MM-DD"),
  to: dayParam("to", "last UTC day, YYYY-MM-DD (inclusive)"),
  customer: queryText("customer", "the customer's account id (exact)"),
  waiting: z
    .enum(["", "0", "1", "true", "false"])
    .default("")
    .transform((value) => value === "1" || value === "true")
    .openapi({
      param: { name: "waiting", in: "query" },
      description: "`1`: paid orders with a manual line to deliver (status `processing`)",
    }),
});

const rowSchema = z
  .object({
    _id: publicIdSchema,
    createdAt: z.string(),
    email: z.string(),
    status: orderStatusSchema,
    paymentMethod: z.string(),
    price: usdSchema,
    items: z.string().openapi({ description: "`2 × Title, 1 × Title` of the lines bought" }),
    waitingForDelivery: z.boolean(),
  })
  .openapi("AdminOrderRow");

const lineSchema = z.object({
  _id: publicIdSchema,
  productId: publicIdSchema,
  optionId: publicIdSchema,
  title: z.string(),
  option: z.string().openapi({ description: "the option's title now" }),
  subtitle: z.string(),
  duration: z.number().int(),
  quantity: z.number().int(),
  unitPrice: usdSchema,
  price: usdSchema,
  fulfilMode: z.enum(["auto", "manual"]),
  isReplacement: z.boolean(),
  delivered: z.number().int().openapi({ description: "credentials on the line now (replaced ones not counted)" }),
  deliveredEver: z.number().int(),
  toDeliver: z.number().int().openapi({ description: "a paid manual line: how many credentials to paste" }),
  refundedAt: z.string().nullable(),
  refunded: usdSchema,
  refundable: usdSchema.openapi({ description: "what refunding this line would credit now" }),
});

const orderSchema = z
  .object({
    _id: publicIdSchema,
    status: orderStatusSchema,
    source: z.enum(["checkout", "redeem", "replacement"]),
    email: z.string(),
    createdAt: z.string(),
    updatedAt: z.string(),
    paidAt: z.string().nullable(),
    expiresAt: z.string().nullable(),
    paymentMethod: z.string(),
    subtotal: usdSchema,
    discount: usdSchema,
    price: usdSchema,
    currency: z.string(),
    coupon: z.object({ _id: publicIdSchema, code: z.string() }).nullable(),
    message: z.string().openapi({ description: "the customer's message to the admin" }),
    clientIp: z.string().nullable(),
    customer: z.object({ _id: publicIdSchema, email: z.string(), username: z.string(), balance: usdSchema }).nullable(),
    lines: z.array(lineSchema),
    payments: z.array(
      z.object({
        _id: publicIdSchema,
        gateway: z.string(),
        status: z.string(),
        amount: usdSchema,
        currency: z.string(),
        providerReference: z.string().nullable(),
        createdAt: z.string(),
        paidAt: z.string().nullable(),
        confirmedBy: z.string().nullable().openapi({ description: "the staff member who confirmed it by hand" }),
        confirmationReason: z.string().nullable(),
        confirmable: z.boolean(),
        events: z.array(z.object({ gateway: z.string(), eventId: z.string(), receivedAt: z.string() })),
      }),
    ),
    ledger: z.array(
      z.object({
        _id: publicIdSchema,
        createdAt: z.string(),
        type: z.string(),
        amount: usdSchema,
        balanceAfter: usdSchema,
        note: z.string(),
        staff: z.string().nullable(),
      }),
    ),
    mails: z.array(
      z.object({
        _id: publicIdSchema,
        to: z.string(),
        subject: z.string(),
        status: z.string(),
        attempts: z.number().int(),
        createdAt: z.string(),
        sentAt: z.string().nullable(),
      }),
    ),
    can: z.object({
      cancel: z.boolean(),
      resendMail: z.boolean(),
      refund: z.boolean(),
      refundReason: z.string().nullable().openapi({ description: "why the order cannot be refunded at all" }),
    }),
  })
  .openapi("AdminOrder");

const credentialsSchema = z.array(
  z.object({
    lineId: publicIdSchema,
    title: z.string(),
    isReplacement: z.boolean(),
    refunded: z.boolean(),
    credentials: z.array(
      z.object({
        position: z.number().int(),
        username: z.string(),
        password: z.string(),
        deliveredAt: z.string(),
        warrantyEnds: z.string().nullable(),
        replacedAt: z.string().nullable(),
      }),
    ),
  }),
);

const NOT_FOUND = { 404: "`Order not found` (or the line or payment named is not the order's)" };
const actionFailures = (conflict: string) => ({
  ...BAD_INPUT,
  ...UNAUTHORIZED,
  403: "the role does not reach this area, or the order is the caller's own",
  ...NOT_FOUND,
  409: conflict,
});
const params = pathParams("orderId");

export const adminOrderRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/orders",
      tags: ADMIN,
      summary: `Search orders, newest first, ${ADMIN_ORDERS_PAGE_SIZE} a page`,
      ...staffRoute("ordersRead"),
      request: { query: searchQuery },
      responses: answers(200, z.object({ records: z.array(rowSchema), pager: pagerSchema }), "a page of orders", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
      }),
    }),
    async (c) => ok(c, await searchOrders(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/orders/{orderId}",
      tags: ADMIN,
      summary: "One order: lines, payments and their webhook events, ledger entries, mails (no credentials)",
      ...staffRoute("ordersRead"),
      request: { params },
      responses: answers(200, orderSchema, "the order", { ...UNAUTHORIZED, ...STAFF_ONLY, ...NOT_FOUND }),
    }),
    async (c) => ok(c, await readAdminOrder(c.get("db"), orderIdFrom(c))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/credentials",
      tags: ADMIN,
      summary: "The order's delivered credentials, replaced and withdrawn ones included; each viewing is audited",
      ...staffRoute("ordersRead"),
      request: { params },
      responses: answers(200, credentialsSchema, "the credentials by line", {
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
        ...NOT_FOUND,
      }),
    }),
    async (c) => ok(c, await viewOrderCredentials(c.get("db"), staffActor(c), orderIdFrom(c))),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/deliver",
      tags: ADMIN,
      summary:
        "Deliver a paid order's manual line: exactly the credentials it still needs, one username:password a line",
      ...staffRoute("ordersWrite"),
      request: {
        params,
        body: jsonBody(z.object({ lineId: orderLineIdField, credentials: deliveryCredentialsField })),
      },
      responses: answers(
        200,
        z.object({
          delivered: z.number().int(),
          status: orderStatusSchema.openapi({
            description: "`completed` once no manual line waits, else `processing`",
          }),
        }),
        "delivered; the customer is mailed",
        {
          ...actionFailures("the order is not paid, the line is automatic, refunded or already delivered"),
        },
      ),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const { delivered, status, message } = await deliverManualLine(depsOf(c), staffActor(c), {
        ...input,
        orderId: orderIdFrom(c),
      });
      return ok(c, { delivered, status }, message);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/confirm-payment",
      tags: ADMIN,
      summary: "Confirm a payment by hand when the provider's webhook never came; settled as a webhook settles it",
      description:
        "`reference` must be the payment's reference at the provider (the stored one, when the checkout stored one). " +
        "A real webhook arriving later for the payment is a duplicate and changes nothing.",
      ...staffRoute("ordersWrite"),
      request: {
        params,
        body: jsonBody(
          z.object({
            paymentId: paymentIdField,
            reference: confirmationReferenceField,
            reason: confirmationReasonField,
          }),
        ),
      },
      responses: answers(200, z.object({ status: orderStatusSchema }), "the order's status after it", {
        ...actionFailures("the payment or the order is already paid, or another payment has this reference"),
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const { status, message } = await confirmPaymentByHand(depsOf(c), staffActor(c), {
        ...input,
        orderId: orderIdFrom(c),
      });
      return ok(c, { status }, message);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/refund",
      tags: ADMIN,
      summary: "Refund the whole order (`wholeOrder`) or some lines (`lineIds`) to the customer's balance",
      ...staffRoute("ordersWrite"),
      request: {
        params,
        body: jsonBody(
          z
            .object({
              wholeOrder: z.boolean().default(false),
              lineIds: z.array(orderLineIdField).max(100).default([]),
            })
            .refine((body) => body.wholeOrder !== body.lineIds.length > 0, {
              message: "Refund either the whole order or some lines",
              path: ["lineIds"],
            }),
        ),
      },
      responses: answers(
        200,
        z.object({
          refunded: usdSchema,
          status: orderStatusSchema.openapi({
            description: "the order's status after it (a refunded manual line waits no more)",
          }),
        }),
        "credited to the customer's balance",
        {
          ...actionFailures(
            "not paid, no account, nothing paid, a line already refunded, or nothing left to refund on it",
          ),
        },
      ),
    }),
    async (c) => {
      const input = c.req.valid("json");
      const { refundedCents, status, message } = await refundToBalance(depsOf(c), staffActor(c), {
        ...input,
        orderId: orderIdFrom(c),
      });
      return ok(c, { refunded: centsToUsd(refundedCents), status }, message);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/resend-mail",
      tags: ADMIN,
      summary: "Mail the order confirmation again, as the order is now",
      ...staffRoute("ordersWrite"),
      request: { params },
      responses: answers(200, z.object({}), "queued", {
        ...actionFailures("the order is not paid, or a mail about it still waits to be sent"),
      }),
    }),
    async (c) => {
      const { message } = await resendOrderMail(depsOf(c), staffActor(c), { orderId: orderIdFrom(c) });
      return ok(c, {}, message);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/cancel",
      tags: ADMIN,
      summary: "Cancel an unpaid order: its reserved stock goes back on sale",
      ...staffRoute("ordersWrite"),
      request: { params },
      responses: answers(200, z.object({}), "cancelled", { ...actionFailures("the order is not pending") }),
    }),
    async (c) => {
      const { message } = await cancelPendingOrder(depsOf(c), staffActor(c), { orderId: orderIdFrom(c) });
      return ok(c, {}, message);
    },
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/orders/{orderId}/warranty/end",
      tags: ADMIN,
      summary: "End a delivered credential's warranty now (the terms end it when the account is changed); audited",
      description:
        "`index` is the credential's number on the order (`credIndexes` of the order line), as replacement " +
        "requests name it. Its replacement requests are refused from then on.",
      ...staffRoute("ordersWrite"),
      request: {
        params,
        body: jsonBody(z.object({ productOptionId: orderOptionIdField, index: credentialIndexField })),
      },
      responses: answers(200, z.object({}), "the warranty has ended", {
        ...actionFailures("the warranty has already ended"),
        404: "no order has this id, or it has no such credential",
      }),
    }),
    async (c) => {
      const { message } = await endCredentialWarranty(depsOf(c), staffActor(c), {
        ...c.req.valid("json"),
        orderId: orderIdFrom(c),
      });
      return ok(c, {}, message);
    },
  );
