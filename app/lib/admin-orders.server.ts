import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { orderStatusSchema } from "../../contract/order";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of the back office's orders (/v1/admin/orders*, ADR 028). Reads answer an ApiResult so
 * the search can show a refused filter; the order page throws a 404 page for an unknown order.
 */

const orderRowSchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  email: z.string(),
  status: orderStatusSchema,
  paymentMethod: z.string(),
  price: z.number(),
  items: z.string(),
  waitingForDelivery: z.boolean(),
});
export type AdminOrderRow = z.infer<typeof orderRowSchema>;

export type OrderFilters = {
  order: string;
  email: string;
  product: string;
  status: string;
  gateway: string;
  from: string;
  to: string;
  customer: string;
  waiting: string;
};

export function searchOrders(context: AppLoadContext, request: Request, query: OrderFilters & { page: number }) {
  const search = new URLSearchParams();
  for (const [name, value] of Object.entries(query)) if (value) search.set(name, String(value));
  return apiCall(context, {
    path: `/v1/admin/orders?${search}`,
    request,
    payload: z.object({ records: z.array(orderRowSchema), pager: pagerSchema }),
  });
}

const orderSchema = z.object({
  _id: z.string(),
  status: orderStatusSchema,
  source: z.string(),
  email: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
  paidAt: z.string().nullable(),
  expiresAt: z.string().nullable(),
  paymentMethod: z.string(),
  subtotal: z.number(),
  discount: z.number(),
  price: z.number(),
  currency: z.string(),
  coupon: z.object({ _id: z.string(), code: z.string() }).nullable(),
  message: z.string(),
  clientIp: z.string().nullable(),
  customer: z.object({ _id: z.string(), email: z.string(), username: z.string(), balance: z.number() }).nullable(),
  lines: z.array(
    z.object({
      _id: z.string(),
      title: z.string(),
      option: z.string(),
      subtitle: z.string(),
      duration: z.number(),
      quantity: z.number(),
      price: z.number(),
      fulfilMode: z.enum(["auto", "manual"]),
      isReplacement: z.boolean(),
      delivered: z.number(),
      toDeliver: z.number(),
      refundedAt: z.string().nullable(),
      refunded: z.number(),
      refundable: z.number(),
    }),
  ),
  payments: z.array(
    z.object({
      _id: z.string(),
      gateway: z.string(),
      status: z.string(),
      amount: z.number(),
      providerReference: z.string().nullable(),
      createdAt: z.string(),
      paidAt: z.string().nullable(),
      confirmedBy: z.string().nullable(),
      confirmationReason: z.string().nullable(),
      confirmable: z.boolean(),
      events: z.array(z.object({ gateway: z.string(), eventId: z.string(), receivedAt: z.string() })),
    }),
  ),
  ledger: z.array(
    z.object({
      _id: z.string(),
      createdAt: z.string(),
      type: z.string(),
      amount: z.number(),
      balanceAfter: z.number(),
      note: z.string(),
      staff: z.string().nullable(),
    }),
  ),
  mails: z.array(
    z.object({
      _id: z.string(),
      to: z.string(),
      subject: z.string(),
      status: z.string(),
      attempts: z.number(),
      createdAt: z.string(),
      sentAt: z.string().nullable(),
    }),
  ),
  can: z.object({
    cancel: z.boolean(),
    resendMail: z.boolean(),
    refund: z.boolean(),
    refundReason: z.string().nullable(),
  }),
});
export type AdminOrder = z.infer<typeof orderSchema>;

const orderPath = (orderId: string) => `/v1/admin/orders/${encodeURIComponent(orderId)}`;

/** The order's page; an unknown or malformed id is the 404 page. */
export function readOrder(context: AppLoadContext, request: Request, orderId: string): Promise<AdminOrder> {
  return apiPayload(context, { path: orderPath(orderId), request, payload: orderSchema });
}

const credentialsSchema = z.array(
  z.object({
    lineId: z.string(),
    title: z.string(),
    isReplacement: z.boolean(),
    refunded: z.boolean(),
    credentials: z.array(
      z.object({
        position: z.number(),
        username: z.string(),
        password: z.string(),
        warrantyEnds: z.string().nullable(),
        replacedAt: z.string().nullable(),
      }),
    ),
  }),
);
export type OrderCredentials = z.infer<typeof credentialsSchema>;

/** The order's credentials: the API writes each viewing to the audit log. */
export function showCredentials(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, { path: `${orderPath(orderId)}/credentials`, request, body: {}, payload: credentialsSchema });
}

export function deliverLine(
  context: AppLoadContext,
  request: Request,
  orderId: string,
  input: { lineId: string; credentials: string },
) {
  return apiCall(context, { path: `${orderPath(orderId)}/deliver`, request, body: input, payload: z.unknown() });
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
    payload: z.unknown(),
  });
}

export function refundOrder(
  context: AppLoadContext,
  request: Request,
  orderId: string,
  input: { wholeOrder: true } | { lineIds: string[] },
) {
  return apiCall(context, { path: `${orderPath(orderId)}/refund`, request, body: input, payload: z.unknown() });
}

export function resendOrderMail(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, { path: `${orderPath(orderId)}/resend-mail`, request, body: {}, payload: z.unknown() });
}

export function cancelOrder(context: AppLoadContext, request: Request, orderId: string) {
  return apiCall(context, { path: `${orderPath(orderId)}/cancel`, request, body: {}, payload: z.unknown() });
}
