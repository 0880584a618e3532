import { and, eq, inArray, isNull } from "drizzle-orm";
import { type OrderStatus, isPaidOrderStatus } from "../../../contract/order";
import { orderProducts, requests } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { orderLinesWithDeliveries, refundLinesOf, refundRefusal, returnedToBalanceCents } from "./admin-view";
import { type StaffActor, auditOrder } from "../staff/audit";
import { creditBalance } from "../payments/balance";
import {
  ORDER_ACTION_MESSAGES,
  type OrderActionDeps,
  onLockedOrder,
  settleOrderStatus,
  statusChange,
  usd,
} from "./admin-actions";

/*
 * Refunds to the balance (ADR 028): how much of an order staff may still refund, line by line (pure arithmetic
 * over rows the caller read under the order's lock, so the order page and the refund agree), and the refund.
 */

export type RefundOrder = {
  status: string;
  priceCents: number;
  subtotalCents: number;
};

export type RefundLine = {
  id: string;
  priceCents: number;
  unitPriceCents: number;
  quantity: number;
  fulfilMode: "auto" | "manual";
  isReplacement: boolean;
  refundedAt: Date | null;
  /** Credentials ever delivered on the line, replaced ones included. */
  deliveredRows: number;
};

/**
 * What the customer paid for each line bought: the order's price (after its discount) shared out by the
 * lines' prices, with the cents rounding leaves given to the largest remainders, so the shares add up to
 * exactly what was paid. Replacement lines were free.
 */
export function paidShares(order: RefundOrder, lines: RefundLine[]): Map<string, number> {
  const bought = lines.filter((line) => !line.isReplacement);
  const shares = new Map(lines.map((line) => [line.id, 0]));
  if (order.subtotalCents <= 0 || order.priceCents <= 0) return shares;
  const exact = bought.map((line) => ({
    id: line.id,
    value: (line.priceCents * order.priceCents) / order.subtotalCents,
  }));
  let left = order.priceCents;
  for (const share of exact) {
    shares.set(share.id, Math.floor(share.value));
    left -= Math.floor(share.value);
  }
  const byRemainder = [...exact].sort((a, b) => b.value - Math.floor(b.value) - (a.value - Math.floor(a.value)));
  for (const share of byRemainder) {
    if (left <= 0) break;
    shares.set(share.id, shares.get(share.id)! + 1);
    left--;
  }
  return shares;
}

/**
 * The cents each line may still be refunded: its share of the price, less what a late payment already
 * credited for its units that were never delivered (fulfilPaidOrder), nothing for a line refunded before
 * or an order not paid; and all of it together never more than the order's price less every refund
 * already credited for it (`returnedCents`, from the ledger), whatever the rounding.
 */
export function refundableByLine(order: RefundOrder, lines: RefundLine[], returnedCents: number): Map<string, number> {
  const refundable = new Map(lines.map((line) => [line.id, 0]));
  if (!isPaidOrderStatus(order.status)) return refundable;
  const shares = paidShares(order, lines);
  let left = Math.max(0, order.priceCents - returnedCents);
  for (const line of lines) {
    if (line.isReplacement || line.refundedAt) continue;
    // An automatic line is delivered at payment: what it lacks was sold out then, and credited at once.
    const lateCredit =
      line.fulfilMode === "auto"
        ? Math.round(
            (Math.max(0, line.quantity - line.deliveredRows) * line.unitPriceCents * order.priceCents) /
              order.subtotalCents,
          )
        : 0;
    const amount = Math.min(left, Math.max(0, shares.get(line.id)! - lateCredit));
    refundable.set(line.id, amount);
    left -= amount;
  }
  return refundable;
}

/**
 * Refunds the whole order, or some of its lines, to the customer's balance: one `refund` ledger entry
 * per line naming the staff member and the order, never more than was paid for the line (after the
 * order's discount, less a late payment's credit). A refunded line (and the free replacement lines of
 * its option) keeps its delivered credentials in the back office, but the customer no longer sees them,
 * and its pending replacement requests are closed. A line is refunded once.
 */
export async function refundToBalance(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; wholeOrder: boolean; lineIds: string[]; now?: Date },
): Promise<{ refundedCents: number; status: OrderStatus; message: string }> {
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    const refusal = refundRefusal(order);
    if (refusal) throw conflict(refusal);
    const rows = await orderLinesWithDeliveries(tx, order.id);
    const lines = rows.map((row) => row.line);
    const refundable = refundableByLine(order, refundLinesOf(rows), await returnedToBalanceCents(tx, order.id));

    let targets: typeof lines;
    if (input.wholeOrder) {
      targets = lines.filter((line) => !line.isReplacement && !line.refundedAt);
      if (targets.length === 0) throw conflict(ORDER_ACTION_MESSAGES.allRefunded);
    } else {
      const wanted = [...new Set(input.lineIds)];
      if (wanted.length === 0) throw badRequest(ORDER_ACTION_MESSAGES.chooseLines);
      targets = wanted.map((lineId) => {
        const line = lines.find((candidate) => candidate.id === lineId);
        if (!line) throw notFound(ORDER_ACTION_MESSAGES.lineNotInOrder);
        if (line.isReplacement) throw badRequest(ORDER_ACTION_MESSAGES.replacementLine);
        if (line.refundedAt) throw conflict(ORDER_ACTION_MESSAGES.alreadyRefunded(line.title));
        if (!refundable.get(line.id)) throw conflict(ORDER_ACTION_MESSAGES.nothingLeft(line.title));
        return line;
      });
    }
    const total = targets.reduce((sum, line) => sum + refundable.get(line.id)!, 0);
    if (total === 0) throw conflict(ORDER_ACTION_MESSAGES.nothingLeft(targets[0].title));

    const withdrawnLineIds: string[] = [];
    for (const line of targets) {
      const amount = refundable.get(line.id)!;
      // Conditional: a line already refunded is never refunded again, whatever reached it first.
      const [marked] = await tx
        .update(orderProducts)
        .set({ refundedAt: now, refundedCents: amount })
        .where(and(eq(orderProducts.id, line.id), isNull(orderProducts.refundedAt)))
        .returning({ id: orderProducts.id });
      if (!marked) throw conflict(ORDER_ACTION_MESSAGES.alreadyRefunded(line.title));
      withdrawnLineIds.push(line.id);
      // Its replacements stand in for its credentials, so they are withdrawn with it.
      const replacements = await tx
        .update(orderProducts)
        .set({ refundedAt: now })
        .where(
          and(
            eq(orderProducts.orderId, order.id),
            eq(orderProducts.optionId, line.optionId),
            eq(orderProducts.isReplacement, true),
            isNull(orderProducts.refundedAt),
          ),
        )
        .returning({ id: orderProducts.id });
      withdrawnLineIds.push(...replacements.map((replacement) => replacement.id));
      if (amount > 0) {
        await creditBalance(tx, order.userId!, amount, "refund", {
          orderId: order.id,
          staffUserId: actor.userId,
          note: `Refund of ${line.title} (order ${order.id.slice(0, 8)})`,
          now,
        });
      }
    }
    await tx
      .update(requests)
      .set({ status: "rejected", answer: "Refunded to your balance.", resolvedAt: now, resolvedBy: actor.userId })
      .where(
        and(
          inArray(requests.orderProductId, withdrawnLineIds),
          eq(requests.kind, "replacement"),
          eq(requests.status, "pending"),
        ),
      );
    const status = await settleOrderStatus(tx, order, now);

    const before = lines.filter((line) => line.refundedAt && !line.isReplacement);
    const refundedBefore = before.reduce((sum, line) => sum + line.refundedCents, 0);
    const change = statusChange(order.status, status);
    await auditOrder(tx, actor, order, "order.refund", {
      before: { refunded: usd(refundedBefore), refundedLines: before.map((line) => line.title), ...change.before },
      after: {
        refunded: usd(refundedBefore + total),
        refundedLines: [...before, ...targets].map((line) => line.title),
        ...change.after,
      },
    });
    return { refundedCents: total, status, message: ORDER_ACTION_MESSAGES.refunded(total) };
  });
}
