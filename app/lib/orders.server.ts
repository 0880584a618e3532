import type { AppLoadContext } from "@remix-run/node";
import { couponPriceSchema } from "../../contract/answers/cart";
import { type SandboxPayment, sandboxPaymentSchema, sandboxSubmittedSchema } from "../../contract/answers/webhooks";
import { type PaymentGateway, gatewayListSchema } from "../../contract/answers/content";
import {
  type Order,
  type OrderLine,
  keyRedeemedSchema,
  orderCreatedSchema,
  orderPageSchema,
  orderSchema,
} from "../../contract/answers/order";
import type { OrderStatus } from "../../contract/order";
import { apiCall, apiPayload, type ApiResult } from "./api.server";
import type { CartItem } from "./cart.server";

/*
 * The /v1 client of checkout and orders: payment gateways, coupons, order creation, order lookup and
 * the sandbox gateway's payment page. Every function answers an ApiResult, so a page can show a 4xx
 * (sold out, coupon used up, 429) as a form error; 5xx and broken answers are thrown by apiCall.
 */

export type { Order };
/** A line of an order. */
export type OrderProduct = OrderLine;

/** One order by its id; 400 (malformed id), 404 and 429 come back as failures for the page to word. */
export function readOrder(context: AppLoadContext, request: Request, orderId: string): Promise<ApiResult<Order>> {
  return apiCall(context, { path: `/v1/order/read/${encodeURIComponent(orderId)}`, request, answer: orderSchema });
}

export type { PaymentGateway };

/** The gateways that can take a payment now, in the shop's order. */
export async function listEnabledGateways(context: AppLoadContext): Promise<PaymentGateway[]> {
  const result = await apiCall(context, { path: "/v1/payment_gateway/read", answer: gatewayListSchema });
  // The spec reads failures of such lists as empty; the panel then says no method is available.
  if (!result.ok) return [];
  return result.payload.filter((gateway) => gateway.status);
}

/** The cart's price after `coupon` (USD); an empty coupon answers the plain price. */
export function applyCoupon(context: AppLoadContext, request: Request, coupon: string) {
  return apiCall(context, { path: "/v1/cart/applyCoupon", request, body: { coupon }, answer: couponPriceSchema });
}

/** The guest variant: the cart travels with the call. A signed-in request still counts per-user coupons. */
export function applyCouponPublic(context: AppLoadContext, request: Request, cartItems: CartItem[], coupon: string) {
  return apiCall(context, {
    path: "/v1/cart/applyCouponPublic",
    request,
    body: { cartItems, coupon },
    answer: couponPriceSchema,
  });
}

export type OrderRequest = { coupon: string; paymentMethod: string; message: string; shownCart?: string };

/** Creates the order from the signed-in customer's server cart. */
export function createOrder(context: AppLoadContext, request: Request, input: OrderRequest, idempotencyKey?: string) {
  return apiCall(context, {
    path: "/v1/order/create",
    request,
    idempotencyKey,
    body: { ...input, isGuest: false },
    answer: orderCreatedSchema,
  });
}

/**
 * A guest's checkout in one call: the API makes the account from the email and the order of the cookie
 * cart in one transaction, so a refusal leaves neither behind. The guest is not signed in.
 */
export function createGuestOrder(
  context: AppLoadContext,
  input: OrderRequest & { email: string; cartItems: CartItem[]; humanCheck: string },
  idempotencyKey?: string,
) {
  const { humanCheck, ...order } = input;
  return apiCall(context, {
    path: "/v1/order/create",
    idempotencyKey,
    body: { ...order, isGuest: true, "g-recaptcha-response": humanCheck },
    answer: orderCreatedSchema,
  });
}

/** Redeems a key for the account with `email` (made if none): the completed order's id (spec section 2). */
export function redeemKey(context: AppLoadContext, input: { email: string; key: string; humanCheck: string }) {
  const { humanCheck, ...fields } = input;
  return apiCall(context, {
    path: "/v1/order/redeemKey",
    body: { ...fields, "g-recaptcha-response": humanCheck },
    answer: keyRedeemedSchema,
  });
}

export type { SandboxPayment };

export function readSandboxPayment(context: AppLoadContext, paymentId: string): Promise<ApiResult<SandboxPayment>> {
  return apiCall(context, {
    path: `/v1/sandbox/payments/${encodeURIComponent(paymentId)}`,
    answer: sandboxPaymentSchema,
  });
}

export function submitSandboxPayment(context: AppLoadContext, paymentId: string, action: "pay" | "cancel") {
  return apiCall(context, {
    path: `/v1/sandbox/payments/${encodeURIComponent(paymentId)}/${action}`,
    method: "POST",
    body: {},
    answer: sandboxSubmittedSchema,
  });
}

export type OrderListQuery = {
  page: number;
  search: string;
  sortBy: "createdAt" | "price";
  status: OrderStatus | undefined;
};

/** The signed-in customer's own orders, one page of them (the API hides stale pending ones). */
export function listMyOrders(context: AppLoadContext, request: Request, query: OrderListQuery) {
  return apiPayload(context, {
    path: "/v1/order/read",
    request,
    body: { ...query, status: query.status ?? "" },
    answer: orderPageSchema,
  });
}

/** One page of the customer's orders, with its pager. */
export type OrderPage = Awaited<ReturnType<typeof listMyOrders>>;
