import { and, eq, max, ne, sql } from "drizzle-orm";
import { DELIVERY_MAX_CREDENTIALS } from "../../../contract/admin-orders";
import { centsToUsd } from "../../../contract/money";
import { ORDER_STATUS_LABELS, type OrderStatus, isPaidOrderStatus } from "../../../contract/order";
import type { NotifyDeps } from "../notifications/operator-notices";
import type { Database, Executor } from "../../db/client";
import { deliveredCredentials, orderProducts, orders, payments, stockCredentials } from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { ADMIN_ORDER_NOT_FOUND, orderLinesWithDeliveries } from "./admin-view";
import { type StaffActor, auditOrder } from "../staff/audit";
import { orderDeliveredMail } from "./mail";
import { closeUnpaidOrder, paidOrderStatus } from "../order-settlement";
import { settlePaidPayment } from "../payments/events";
import { sealedColumns } from "../stock/secrets";

/*
 * What staff do to an order (ADR 028): deliver a manual line, confirm a payment by hand, cancel an unpaid
 * order, end a credential's warranty here; refund to the balance in admin-refunds.ts, resend the order
 * mail in admin-resend-mail.ts. Each runs in one
 * transaction that first locks the order's row (the lock every path that changes an order takes first:
 * webhooks, the expiry job, requests), then checks the order's state under that lock and changes it with
 * conditional updates, so a double click or two staff at once apply it once: the second finds it done and
 * gets a 409.
 * Each writes its audit entry in the same transaction; no credential ever goes into one.
 */

export type OrderActionDeps = { db: Database; config: NotifyDeps };

const DAY_MS = 24 * 60 * 60 * 1000;
export const usd = (cents: number) => `$${centsToUsd(cents).toFixed(2)}`;
const statusLabel = (status: OrderStatus) => ORDER_STATUS_LABELS[status].toLowerCase();

export const ORDER_ACTION_MESSAGES = {
  lineNotInOrder: "This line is not part of the order",
  paymentNotInOrder: "This payment is not part of the order",
  deliverNotPaid: (status: OrderStatus) => `Only a paid order is delivered; this one is ${statusLabel(status)}.`,
  deliverAuto: "This line is delivered automatically from stock, not by hand.",
  deliverRefunded: "This line was refunded; there is nothing to deliver.",
  alreadyDelivered: "This line is already delivered.",
  badCredentialLine: (line: number) => `Line ${line} is not username:password`,
  wrongCount: (needed: number, pasted: number) =>
    `This line needs ${needed} credential${needed === 1 ? "" : "s"}, one username:password per line; you pasted ${pasted}.`,
  delivered: (count: number, status: OrderStatus) =>
    `Delivered ${count} credential${count === 1 ? "" : "s"}; the customer was mailed. The order is ${statusLabel(status)}.`,
  alreadyPaid: "This payment is already paid.",
  orderAlreadyPaid: "This order is already paid by another payment.",
  referenceMismatch:
    "This reference is not the one the provider gave this payment (shown under Payments). Check that you are confirming the right payment.",
  referenceTaken: "Another payment already has this reference at this provider.",
  confirmed: (status: OrderStatus) => `Payment confirmed by hand; the order is ${statusLabel(status)}.`,
  chooseLines: "Choose the lines to refund",
  replacementLine: "A replacement line was free: refund the line bought instead.",
  alreadyRefunded: (title: string) => `"${title}" is already refunded.`,
  allRefunded: "Every line of this order is already refunded.",
  nothingLeft: (title: string) => `Nothing is left to refund on "${title}".`,
  refunded: (cents: number) => `Refunded ${usd(cents)} to the customer's balance.`,
  resendNotPaid: (status: OrderStatus) => `Only a paid order has an order mail; this one is ${statusLabel(status)}.`,
  mailWaiting: "A mail about this order is still waiting to be sent. Try again once it has gone out.",
  resent: "The order mail is on its way to the customer.",
  cancelNotPending: (status: OrderStatus) =>
    `Only an unpaid order can be cancelled; this one is ${statusLabel(status)}.`,
  cancelled: "Order cancelled; its reserved stock is back on sale.",
  ownOrder: "This is your own order: staff do not act on their own orders. Another owner or manager can do it.",
  credentialNotInOrder: "This product of the order has no credential with that number",
  warrantyAlreadyEnded: "This credential's warranty has already ended.",
  warrantyEnded: "Warranty ended; the customer can no longer ask for a replacement of this credential.",
} as const;

/**
 * The order's row, locked until the transaction ends. An order of the staff member's own account is
 * refused (ADR 035): nobody delivers, confirms, refunds to, resends or cancels for themselves.
 */
async function lockOrder(tx: Executor, actor: StaffActor, orderId: string) {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  if (!order) throw notFound(ADMIN_ORDER_NOT_FOUND);
  if (order.userId !== null && order.userId === actor.userId) throw forbidden(ORDER_ACTION_MESSAGES.ownOrder);
  return order;
}

type OrderTransaction = Parameters<Parameters<Database["transaction"]>[0]>[0];

/**
 * A staff action on one order: one transaction that holds the order's lock (404 for an unknown order, 403
 * for the caller's own), at `input.now` or now.
 */
export function onLockedOrder<T>(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; now?: Date },
  act: (tx: OrderTransaction, order: Awaited<ReturnType<typeof lockOrder>>, now: Date) => Promise<T>,
): Promise<T> {
  const now = input.now ?? new Date();
  return deps.db.transaction(async (tx) => act(tx, await lockOrder(tx, actor, input.orderId), now));
}

/**
 * The status of a paid order now that a line was delivered or refunded (ADR 037): a processing order whose
 * manual lines are all delivered or refunded is completed (partiallyComplete after a late payment's shortfall).
 * Writes it with `updatedAt`; the caller holds the order's lock.
 */
export async function settleOrderStatus(
  tx: Executor,
  order: { id: string; status: OrderStatus },
  now: Date,
): Promise<OrderStatus> {
  let status = order.status;
  if (status === "processing") {
    const rows = await orderLinesWithDeliveries(tx, order.id);
    status = paidOrderStatus(
      rows.map(({ line, deliveredRows }) => ({
        fulfilMode: line.fulfilMode,
        isReplacement: line.isReplacement,
        quantity: line.quantity,
        delivered: Number(deliveredRows),
        refunded: line.refundedAt !== null,
      })),
    );
  }
  await tx.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, order.id));
  return status;
}

/** An audit entry's status fields: only when the status changed. */
export const statusChange = (before: OrderStatus, after: OrderStatus) =>
  before === after ? { before: {}, after: {} } : { before: { status: before }, after: { status: after } };

// ---------------------------------------------------------------- deliver

/** One "username:password" per non-blank line (the password may hold colons); both parts required. */
export function parseDeliveryText(text: string): { username: string; password: string }[] {
  const lines = text
    .split(/\r?\n/)
    .map((line) => line.trim())
    .filter(Boolean);
  return lines.map((line, index) => {
    const colon = line.indexOf(":");
    const username = colon === -1 ? "" : line.slice(0, colon).trim();
    const password = colon === -1 ? "" : line.slice(colon + 1).trim();
    if (!username || !password) {
      const message = ORDER_ACTION_MESSAGES.badCredentialLine(index + 1);
      throw badRequest(message, { credentials: [message] });
    }
    return { username, password };
  });
}

/**
 * Delivers a paid order's manual line with the credentials staff pasted, exactly as many as it still
 * needs: they become delivered stock of the line's option and delivered credentials with the warranty
 * end, and the customer is mailed. A line is delivered whole, once.
 */
export async function deliverManualLine(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; lineId: string; credentials: string; now?: Date },
): Promise<{ delivered: number; status: OrderStatus; message: string }> {
  const pasted = parseDeliveryText(input.credentials);
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    const [line] = await tx
      .select()
      .from(orderProducts)
      .where(and(eq(orderProducts.id, input.lineId), eq(orderProducts.orderId, order.id)));
    if (!line) throw notFound(ORDER_ACTION_MESSAGES.lineNotInOrder);
    if (!isPaidOrderStatus(order.status)) throw conflict(ORDER_ACTION_MESSAGES.deliverNotPaid(order.status));
    if (line.fulfilMode !== "manual") throw conflict(ORDER_ACTION_MESSAGES.deliverAuto);
    if (line.refundedAt) throw conflict(ORDER_ACTION_MESSAGES.deliverRefunded);
    const [{ rows }] = await tx
      .select({ rows: sql<number>`count(*)`.mapWith(Number) })
      .from(deliveredCredentials)
      .where(eq(deliveredCredentials.orderProductId, line.id));
    const needed = line.quantity - rows;
    if (needed <= 0) throw conflict(ORDER_ACTION_MESSAGES.alreadyDelivered);
    if (pasted.length !== needed || pasted.length > DELIVERY_MAX_CREDENTIALS) {
      const message = ORDER_ACTION_MESSAGES.wrongCount(needed, pasted.length);
      throw badRequest(message, { credentials: [message] });
    }
    // Replacement requests name a credential by its position among the order's lines of the option (ADR 020).
    const [{ last }] = await tx
      .select({ last: max(deliveredCredentials.position) })
      .from(deliveredCredentials)
      .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
      .where(and(eq(orderProducts.orderId, order.id), eq(orderProducts.optionId, line.optionId)));
    const stored = await tx
      .insert(stockCredentials)
      .values(
        pasted.map((credential) => ({
          optionId: line.optionId,
          ...sealedColumns(credential),
          status: "delivered" as const,
          orderProductId: line.id,
          batchLabel: "Delivered by hand",
          createdAt: now,
          deliveredAt: now,
        })),
      )
      .returning({ id: stockCredentials.id });
    const expiresAt = new Date(now.getTime() + line.durationDays * DAY_MS);
    await tx.insert(deliveredCredentials).values(
      stored.map((credential, index) => ({
        orderProductId: line.id,
        credentialId: credential.id,
        position: (last ?? -1) + 1 + index,
        deliveredAt: now,
        expiresAt,
      })),
    );
    const status = await settleOrderStatus(tx, order, now);
    await enqueueMail(
      tx,
      orderDeliveredMail({
        to: order.email,
        orderId: order.id,
        publicUrl: deps.config.publicUrl,
        line,
        orderDone: status !== "processing",
      }),
      now,
    );
    const change = statusChange(order.status, status);
    await auditOrder(tx, actor, order, "order.deliver", {
      before: { delivered: `${line.title}: ${rows} of ${line.quantity}`, ...change.before },
      after: { delivered: `${line.title}: ${line.quantity} of ${line.quantity}`, ...change.after },
    });
    return { delivered: stored.length, status, message: ORDER_ACTION_MESSAGES.delivered(stored.length, status) };
  });
}

// ---------------------------------------------------------------- confirm a payment by hand

/**
 * Staff confirm a payment whose webhook never came, naming the provider's reference and why. It is
 * settled exactly as a verified webhook settles it (settlePaidPayment: delivery, the late-payment rules
 * of an expired order, the mail), and a real webhook arriving later for it is a duplicate.
 */
export async function confirmPaymentByHand(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; paymentId: string; reference: string; reason: string; now?: Date },
): Promise<{ status: OrderStatus; message: string }> {
  // The order, then the payment: the order webhooks and the expiry job lock them in.
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    const [payment] = await tx
      .select()
      .from(payments)
      .where(and(eq(payments.id, input.paymentId), eq(payments.orderId, order.id)))
      .for("update");
    if (!payment) throw notFound(ORDER_ACTION_MESSAGES.paymentNotInOrder);
    if (payment.status === "paid" || payment.status === "refunded") throw conflict(ORDER_ACTION_MESSAGES.alreadyPaid);
    if (isPaidOrderStatus(order.status)) throw conflict(ORDER_ACTION_MESSAGES.orderAlreadyPaid);
    if (payment.providerReference !== null && payment.providerReference !== input.reference) {
      throw badRequest(ORDER_ACTION_MESSAGES.referenceMismatch, {
        reference: [ORDER_ACTION_MESSAGES.referenceMismatch],
      });
    }
    if (payment.providerReference === null) {
      const [taken] = await tx
        .select({ id: payments.id })
        .from(payments)
        .where(
          and(
            eq(payments.gateway, payment.gateway),
            eq(payments.providerReference, input.reference),
            ne(payments.id, payment.id),
          ),
        );
      if (taken) throw conflict(ORDER_ACTION_MESSAGES.referenceTaken);
    }
    await tx
      .update(payments)
      .set({ providerReference: input.reference, confirmedByUserId: actor.userId, confirmationReason: input.reason })
      .where(eq(payments.id, payment.id));
    await settlePaidPayment(tx, deps.config, payment, now);
    const [settled] = await tx.select({ status: orders.status }).from(orders).where(eq(orders.id, order.id));
    await auditOrder(tx, actor, order, "order.payment.confirm", {
      before: { payment: `${payment.gateway} ${payment.status}`, status: order.status },
      after: {
        payment: `${payment.gateway} paid`,
        status: settled.status,
        reference: input.reference,
        reason: input.reason,
      },
    });
    return { status: settled.status, message: ORDER_ACTION_MESSAGES.confirmed(settled.status) };
  });
}

// ---------------------------------------------------------------- cancel

/** Cancels an unpaid order: its reserved stock goes back on sale, its coupon use and payment are closed. */
export async function cancelPendingOrder(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; now?: Date },
): Promise<{ message: string }> {
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    if (order.status !== "pending") throw conflict(ORDER_ACTION_MESSAGES.cancelNotPending(order.status));
    await closeUnpaidOrder(tx, order, "cancelled", now);
    await auditOrder(tx, actor, order, "order.cancel", {
      before: { status: "pending" },
      after: { status: "cancelled" },
    });
    return { message: ORDER_ACTION_MESSAGES.cancelled };
  });
}

// ---------------------------------------------------------------- end a warranty

/**
 * Ends a delivered credential's warranty now: the store's terms end it when the customer changes the
 * account's password or email, say (ADR 020). Its replacement requests are then refused like any ended
 * warranty's. `index` is the credential's number on the order, as the customer's requests name it.
 */
export async function endCredentialWarranty(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; productOptionId: string; index: number; now?: Date },
): Promise<{ message: string }> {
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    const [credential] = await tx
      .select({ id: deliveredCredentials.id, expiresAt: deliveredCredentials.expiresAt, title: orderProducts.title })
      .from(deliveredCredentials)
      .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
      .where(
        and(
          eq(orderProducts.orderId, order.id),
          eq(orderProducts.optionId, input.productOptionId),
          eq(deliveredCredentials.position, input.index),
        ),
      );
    if (!credential) throw notFound(ORDER_ACTION_MESSAGES.credentialNotInOrder);
    if (credential.expiresAt && credential.expiresAt <= now) throw conflict(ORDER_ACTION_MESSAGES.warrantyAlreadyEnded);
    await tx.update(deliveredCredentials).set({ expiresAt: now }).where(eq(deliveredCredentials.id, credential.id));
    const label = `${credential.title}, credential ${input.index + 1}`;
    await auditOrder(tx, actor, order, "order.warranty.end", {
      before: { warranty: `${label}: until ${credential.expiresAt?.toISOString() ?? "no end"}` },
      after: { warranty: `${label}: ended ${now.toISOString()}` },
    });
    return { message: ORDER_ACTION_MESSAGES.warrantyEnded };
  });
}
