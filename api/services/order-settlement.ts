import { and, asc, eq, lt } from "drizzle-orm";
import type { OrderStatus, PaidOrderStatus } from "../../contract/order";
import { countOrderPaid, countPaymentOutcome } from "../metrics";
import { type Executor, prepared } from "../db/client";
import { orderProducts, orders, payments, users } from "../db/schema";
import { creditBalance } from "./payments/balance";
import { releaseCouponUse } from "./coupons/discounts";
import { enqueueOrderConfirmation } from "./orders/mail";
import { type NotifyDeps, notifyOrderPaid } from "./notifications/operator-notices";
import { returnLinesToServerCart, takeLinesFromServerCart } from "./cart/server-cart";
import { deliverLine, releaseReservations } from "./stock/claims";
import { recheckStockLevels } from "./stock/levels";
import { idsOf } from "./shared/rows";

/* An order's statuses and what each means: contract/browser/order.ts (ORDER_STATUSES, ADR 037). */

export type OrderContext = NotifyDeps & {
  /** RATE_LIMIT_SCALE: the unpaid-order cap per address is a rate limit, raised where many buyers share one. */
  rateLimitScale?: number;
};

/**
/** What a paid order's line has received: the figures its status is decided from. */
export type LineDelivery = {
  fulfilMode: "auto" | "manual";
  isReplacement: boolean;
  quantity: number;
  /** Credentials ever delivered on the line, replaced ones included. */
  delivered: number;
  refunded: boolean;
};

/**
 * The status of a paid order (ADR 037): processing while a manual line bought waits for staff (delivered whole,
 * or refunded instead); then partiallyComplete when a late payment found part of an automatic line sold out
 * (those units were credited to the balance, and automatic lines are delivered only at payment), else completed.
 */
export function paidOrderStatus(lines: LineDelivery[]): PaidOrderStatus {
  const bought = lines.filter((line) => !line.isReplacement);
  const waiting = (line: LineDelivery) => line.fulfilMode === "manual" && !line.refunded;
  if (bought.some((line) => waiting(line) && line.delivered < line.quantity)) return "processing";
  if (bought.some((line) => line.fulfilMode === "auto" && line.delivered < line.quantity)) return "partiallyComplete";
  return "completed";
}

/**
 * An order its caller has just placed and paid in this transaction: its rows as written (and so row-locked),
 * what was delivered on each automatic line as it was claimed (claimAndDeliver), and whether its owner's
 * account was made at checkout. fulfilPaidOrder reads none of it again.
 */
export type PlacedOrder = {
  order: typeof orders.$inferSelect;
  lines: (typeof orderProducts.$inferSelect)[];
  deliveredByLine: Map<string, number>;
  /** Read when not known. */
  autoCreatedOwner?: boolean;
};

/**
 * Delivers a paid order: reserved credentials first, then (late payment) whatever is still in stock.
 * Units that cannot be delivered any more are credited to the customer's balance at the price paid
 * for them (after any discount). Manual lines wait for staff, and the order is processing until they are
 * delivered (paidOrderStatus). Queues the confirmation and the operator's notice, and (last, as it locks
 * the options) checks the stock levels a late payment took.
 */
export async function fulfilPaidOrder(
  tx: Executor,
  ctx: OrderContext,
  orderId: string,
  now: Date,
  placed?: PlacedOrder,
): Promise<PaidOrderStatus> {
  const [order] = placed ? [placed.order] : await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  const lines = placed
    ? [...placed.lines].sort(
        (a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0),
      )
    : await tx
        .select()
        .from(orderProducts)
        .where(eq(orderProducts.orderId, orderId))
        .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  let undeliveredCents = 0;
  const mailLines = [];
  const deliveries: LineDelivery[] = [];
  for (const line of lines) {
    const manual = line.fulfilMode === "manual";
    const delivered = manual ? 0 : (placed?.deliveredByLine.get(line.id) ?? (await deliverLine(tx, line, now)));
    if (!manual) undeliveredCents += (line.quantity - delivered) * line.unitPriceCents;
    deliveries.push({
      fulfilMode: line.fulfilMode,
      isReplacement: line.isReplacement,
      quantity: line.quantity,
      delivered,
      refunded: false,
    });
    mailLines.push({
      title: line.title,
      subtitle: line.subtitle,
      quantity: line.quantity,
      delivered,
      manual,
      optionId: line.optionId,
      priceCents: line.priceCents,
    });
  }
  const refundCents =
    undeliveredCents > 0 && order.subtotalCents > 0
      ? Math.min(order.priceCents, Math.round((undeliveredCents * order.priceCents) / order.subtotalCents))
      : 0;
  if (refundCents > 0 && order.userId) {
    await creditBalance(tx, order.userId, refundCents, "refund", {
      orderId,
      note: `Sold out after a late payment of order ${orderId}`,
      now,
    });
  }
  const status = paidOrderStatus(deliveries);
  await prepared(
    tx.update(orders).set({ status, paidAt: now, updatedAt: now }).where(eq(orders.id, orderId)),
    "settle_paid_order",
  );
  countOrderPaid(order.paymentMethod);

  const [owner] =
    placed?.autoCreatedOwner !== undefined
      ? [{ autoCreated: placed.autoCreatedOwner }]
      : order.userId
        ? await tx.select({ autoCreated: users.autoCreated }).from(users).where(eq(users.id, order.userId))
        : [];
  await enqueueOrderConfirmation(
    tx,
    {
      to: order.email,
      orderId,
      publicUrl: ctx.publicUrl,
      status,
      lines: mailLines,
      priceCents: order.priceCents,
      refundedCents: order.userId ? refundCents : 0,
      autoCreatedAccount: owner?.autoCreated ?? false,
    },
    now,
  );
  await notifyOrderPaid(
    tx,
    ctx,
    { order, lines: mailLines, status, refundedCents: order.userId ? refundCents : 0 },
    now,
  );
  await recheckStockLevels(
    tx,
    ctx,
    lines.filter((line) => line.fulfilMode === "auto").map((line) => line.optionId),
    now,
  );
  return status;
}

/** An order's lines as cart lines (option, duration, quantity). */
function cartLinesOf(tx: Executor, orderId: string) {
  return tx
    .select({
      id: orderProducts.id,
      optionId: orderProducts.optionId,
      duration: orderProducts.durationDays,
      quantity: orderProducts.quantity,
    })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId));
}

/**
 * Ends an unpaid order: its stock goes back on sale, its coupon use is given back, its pending
 * payment is closed, and a checkout's lines go back into its customer's cart (ADR 019), so a
 * cancelled or expired payment never empties a cart. The caller holds the order's row lock and
 * has checked it is pending.
 */
export async function closeUnpaidOrder(
  tx: Executor,
  order: { id: string; couponId: string | null },
  status: "expired" | "cancelled",
  now: Date,
): Promise<void> {
  const [{ userId, source }] = await tx
    .update(orders)
    .set({ status, updatedAt: now })
    .where(eq(orders.id, order.id))
    .returning({ userId: orders.userId, source: orders.source });
  const lines = await cartLinesOf(tx, order.id);
  await releaseReservations(tx, idsOf(lines));
  if (userId && source === "checkout") await returnLinesToServerCart(tx, userId, lines);
  const outcome = status === "expired" ? "expired" : "failed";
  const ended = await tx
    .update(payments)
    .set({ status: outcome })
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "pending")))
    .returning({ gateway: payments.gateway });
  for (const payment of ended) countPaymentOutcome(payment.gateway, outcome);
  if (order.couponId) await releaseCouponUse(tx, order.couponId, order.id);
}

export type ReturnedLines = {
  status: OrderStatus;
  /** The lines to put back into the guest's cookie cart: set once the order ended unpaid. */
  cartItems: { optionId: string; duration: number; quantity: number }[];
};

/**
 * For the guest cookie cart that became `orderId` (ADR 019): once the order ended unpaid, its lines, which
 * closeUnpaidOrder put into the cart of the account made at checkout, move to the browser that placed it.
 * The answer is the same however often it is asked, so two tabs cannot double a line.
 */
export async function returnedLinesOf(db: Executor, orderId: string): Promise<ReturnedLines | null> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ status: orders.status, source: orders.source, userId: orders.userId })
      .from(orders)
      .where(eq(orders.id, orderId));
    if (!order || order.source !== "checkout") return null;
    if (order.status !== "cancelled" && order.status !== "expired") return { status: order.status, cartItems: [] };
    const lines = (await cartLinesOf(tx, orderId)).map(({ optionId, duration, quantity }) => ({
      optionId,
      duration,
      quantity,
    }));
    const [owner] = order.userId
      ? await tx.select({ autoCreated: users.autoCreated }).from(users).where(eq(users.id, order.userId))
      : [];
    // A customer's own cart keeps its lines; an account made at checkout had only the guest's.
    if (owner?.autoCreated && order.userId) await takeLinesFromServerCart(tx, order.userId, lines);
    return { status: order.status, cartItems: lines };
  });
}

export const EXPIRY_BATCH_SIZE = 100;

/**
 * Expires unpaid orders whose reservation ran out and releases their stock. SKIP LOCKED lets several
 * instances run this at once (each takes other orders), and never waits on an order that a webhook is
 * settling right now. Answers how many orders it expired.
 */
export async function expireUnpaidOrders(
  db: Executor,
  now = new Date(),
  batchSize = EXPIRY_BATCH_SIZE,
): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: orders.id, couponId: orders.couponId })
      .from(orders)
      .where(and(eq(orders.status, "pending"), lt(orders.expiresAt, now)))
      .orderBy(asc(orders.expiresAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    for (const order of due) await closeUnpaidOrder(tx, order, "expired", now);
    return due.length;
  });
}
