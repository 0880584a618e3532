import { z } from "@hono/zod-openapi";
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
import { centsToUsd } from "../../../contract/money";
import { type ApiEnv, depsOf } from "../../context";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { BAD_INPUT, NO_BODY, UNAUTHORIZED, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import {
  cancelPendingOrder,
  confirmPaymentByHand,
  deliverManualLine,
  endCredentialWarranty,
} from "../../services/orders/admin-actions";
import { refundToBalance } from "../../services/orders/admin-refunds";
import { resendOrderMail } from "../../services/orders/admin-resend-mail";
import {
  ADMIN_ORDER_NOT_FOUND,
  readAdminOrder,
  searchOrders,
  viewOrderCredentials,
} from "../../services/orders/admin-view";
import { FAILURES, STAFF_FAILURES, adminRoute, filterField, idOf, pageField } from "./admin-route";

/*
 * /v1/admin/orders (ADR 028): every staff role searches and reads orders and may ask to see an order's
 * credentials (audited); owners and managers act on them (ending a credential's warranty included). Each action answers 409 when the order's state
 * does not allow it any more, so a repeat (a double click, a second staff member) changes nothing.
 */

/** A malformed id names no order: the same 404 as an unknown one. */
const orderIdFrom = (c: Context<ApiEnv>) => idOf(c.req.param("orderId") ?? "", ADMIN_ORDER_NOT_FOUND);

const queryText = (name: string, description: string) => filterField(name, description, ORDER_FILTER_MAX_LENGTH);
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
  page: pageField,
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
    adminRoute("ordersRead", {
      method: "get",
      path: "/orders",
      summary: `Search orders, newest first, ${ADMIN_ORDERS_PAGE_SIZE} a page`,
      request: { query: searchQuery },
      responses: answers(200, adminOrderPageSchema, "a page of orders", FAILURES),
    }),
    async (c) => ok(c, await searchOrders(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("ordersRead", {
      method: "get",
      path: "/orders/{orderId}",
      summary: "One order: lines, payments and their webhook events, ledger entries, mails (no credentials)",
      request: { params },
      responses: answers(200, adminOrderSchema, "the order", { ...STAFF_FAILURES, ...NOT_FOUND }),
    }),
    async (c) => ok(c, await readAdminOrder(c.get("db"), orderIdFrom(c))),
  )
  .openapi(
    adminRoute("ordersRead", {
      method: "post",
      path: "/orders/{orderId}/credentials",
      summary: "The order's delivered credentials, replaced and withdrawn ones included; each viewing is audited",
      request: { params, body: NO_BODY },
      responses: answers(200, orderCredentialsSchema, "the credentials by line", {
        ...STAFF_FAILURES,
        ...NOT_FOUND,
      }),
    }),
    async (c) => ok(c, await viewOrderCredentials(c.get("db"), staffActor(c), orderIdFrom(c))),
  )
  .openapi(
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/deliver",
      summary:
        "Deliver a paid order's manual line: exactly the credentials it still needs, one username:password a line",
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
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/confirm-payment",
      summary: "Confirm a payment by hand when the provider's webhook never came; settled as a webhook settles it",
      description:
        "`reference` must be the payment's reference at the provider (the stored one, when the checkout stored one). " +
        "A real webhook arriving later for the payment is a duplicate and changes nothing.",
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
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/refund",
      summary: "Refund the whole order (`wholeOrder`) or some lines (`lineIds`) to the customer's balance",
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
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/resend-mail",
      summary: "Mail the order confirmation again, as the order is now",
      request: { params, body: NO_BODY },
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
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/cancel",
      summary: "Cancel an unpaid order: its reserved stock goes back on sale",
      request: { params, body: NO_BODY },
      responses: answers(200, orderActionDoneSchema, "cancelled", { ...actionFailures("the order is not pending") }),
    }),
    async (c) => {
      const { message } = await cancelPendingOrder(depsOf(c), staffActor(c), { orderId: orderIdFrom(c) });
      return ok(c, {}, message);
    },
  )
  .openapi(
    adminRoute("ordersWrite", {
      method: "post",
      path: "/orders/{orderId}/warranty/end",
      summary: "End a delivered credential's warranty now (the terms end it when the account is changed); audited",
      description:
        "`index` is the credential's number on the order (`credIndexes` of the order line), as replacement " +
        "requests name it. Its replacement requests are refused from then on.",
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
