/* Order statuses that pages need in the browser: no zod here (ADR 032); the schema is in ../order.ts. */

/**
 * Every status an order can have, in the order of its life: the one list the API, the database and the pages
 * read. The spec names pending, completed and partiallyComplete; processing, expired and cancelled are ours
 * (ADR 037).
 *  pending            waiting for a hosted payment; its stock is reserved until it expires
 *  processing         paid, and a line delivered by hand waits for staff ("being processed")
 *  completed          paid, and every line delivered
 *  partiallyComplete  paid late, after part of the stock was gone: what remained was delivered and the rest
 *                     credited to the customer's balance
 *  expired            never paid within the reservation time
 *  cancelled          the payment failed or was cancelled, or staff cancelled the unpaid order
 */
export const ORDER_STATUSES = [
  "pending",
  "processing",
  "completed",
  "partiallyComplete",
  "expired",
  "cancelled",
] as const;
export type OrderStatus = (typeof ORDER_STATUSES)[number];

/** The statuses of an order that is paid: its automatic lines are delivered, its manual ones once staff have. */
export const PAID_ORDER_STATUSES = [
  "processing",
  "completed",
  "partiallyComplete",
] as const satisfies readonly OrderStatus[];
export type PaidOrderStatus = (typeof PAID_ORDER_STATUSES)[number];
export const isPaidOrderStatus = (status: string): status is PaidOrderStatus =>
  (PAID_ORDER_STATUSES as readonly string[]).includes(status);

/** How the order page and the back office name each status. */
export const ORDER_STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Waiting for payment",
  processing: "Being processed",
  completed: "Completed",
  partiallyComplete: "Partially complete",
  expired: "Expired",
  cancelled: "Cancelled",
};

/** How a checkout may pay (POST /v1/order/create): the hosted gateways, the sandbox and the balance. */
export const CHECKOUT_PAYMENT_METHODS = ["coinbase", "shoppy", "stripe", "balance", "sandbox"] as const;

/** How an order was paid (orders.payment_method): a checkout's method, or a redeemed key. */
export const ORDER_PAYMENT_METHODS = [...CHECKOUT_PAYMENT_METHODS, "key"] as const;

/** A hosted payment's life (payments.status): waiting, paid, failed, expired unpaid, or refunded. */
export const PAYMENT_STATUSES = ["pending", "paid", "failed", "expired", "refunded"] as const;
/** What a payment is for: an order, or a balance top-up. */
export const PAYMENT_PURPOSES = ["order", "topup"] as const;
