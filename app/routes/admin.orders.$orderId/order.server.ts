import type { AppLoadContext } from "@remix-run/node";
import type { AdminOrder } from "../../../contract/answers/admin-orders";
import * as answerOf from "../../../contract/answers/admin-orders";
import { adminPath } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* The order page's /v1 client (/v1/admin/orders/:id*, ADR 028): an unknown order throws the 404 page. */

export type { AdminOrder, OrderCredentials } from "../../../contract/answers/admin-orders";

const orderPath = (orderId: string) => adminPath("orders", orderId);

/** The order's page; an unknown or malformed id is the 404 page. */
export function readOrder(context: AppLoadContext, request: Request, orderId: string): Promise<AdminOrder> {
  return apiPayload(context, { path: orderPath(orderId), request, answer: answerOf.adminOrderSchema });
}

/** The order's credentials: the API writes each viewing to the audit log. */
export function showCredentials(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/credentials`,
    request,
    body: {},
    answer: answerOf.orderCredentialsSchema,
  });
}

export function deliverLine(
  context: AppLoadContext,
  request: Request,
  orderId: string,
  input: { lineId: string; credentials: string },
) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/deliver`,
    request,
    body: input,
    answer: answerOf.lineDeliveredSchema,
  });
}

export function confirmPayment(
  context: AppLoadContext,
  request: Request,
  orderId: string,
  input: { paymentId: string; reference: string; reason: string },
) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/confirm-payment`,
    request,
    body: input,
    answer: answerOf.paymentConfirmedSchema,
  });
}

export function refundOrder(
  context: AppLoadContext,
  request: Request,
  orderId: string,
  input: { wholeOrder: true } | { lineIds: string[] },
) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/refund`,
    request,
    body: input,
    answer: answerOf.orderRefundedSchema,
  });
}

export function resendOrderMail(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/resend-mail`,
    request,
    body: {},
    answer: answerOf.orderActionDoneSchema,
  });
}

export function cancelOrder(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, {
    path: `${orderPath(orderId)}/cancel`,
    request,
    body: {},
    answer: answerOf.orderActionDoneSchema,
  });
}
