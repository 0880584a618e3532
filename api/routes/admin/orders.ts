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
import {
  adminOrderPageSchema,
  adminOrderSchema,
  lineDeliveredSchema,
  orderActionDoneSchema,
  orderCredentialsSchema,
  orderRefundedSchema,
  paymentConfirmedSchema,
} from "../../../contract/answers/admin-orders";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { centsToUsd } from "../../../contract/money";
import type { ApiEnv } from "../../context";
import { notFound } from "../../errors";
import { ok } from "../../http";
import { staffActor, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
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
      responses: answers(200, adminOrderPageSchema, "a page of orders", {
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
      responses: answers(200, adminOrderSchema, "the order", { ...UNAUTHORIZED, ...STAFF_ONLY, ...NOT_FOUND }),
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
      responses: answers(200, orderCredentialsSchema, "the credentials by line", {
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
      responses: answers(200, lineDeliveredSchema, "delivered; the customer is mailed", {
        ...actionFailures("the order is not paid, the line is automatic, refunded or already delivered"),
      }),
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
      responses: answers(200, paymentConfirmedSchema, "the order's status after it", {
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
      responses: answers(200, orderRefundedSchema, "credited to the customer's balance", {
        ...actionFailures(
          "not paid, no account, nothing paid, a line already refunded, or nothing left to refund on it",
        ),
      }),
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
      responses: answers(200, orderActionDoneSchema, "queued", {
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
      responses: answers(200, orderActionDoneSchema, "cancelled", { ...actionFailures("the order is not pending") }),
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
      responses: answers(200, orderActionDoneSchema, "the warranty has ended", {
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
