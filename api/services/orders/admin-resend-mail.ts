import { and, eq, isNull, sum } from "drizzle-orm";
import { type PaidOrderStatus, isPaidOrderStatus } from "../../../contract/order";
import type { Executor } from "../../db/client";
import { balanceLedger, mailOutbox, orders, users } from "../../db/schema";
import { conflict } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { orderLinesWithDeliveries } from "./admin-view";
import { type StaffActor, auditOrder } from "../staff/audit";
import { orderConfirmationMail } from "./mail";
import { ORDER_ACTION_MESSAGES, type OrderActionDeps, onLockedOrder } from "./admin-actions";

/* Staff send a paid order's mail again, with its figures as they are now (ADR 028). */

/** Current figures of a paid order's confirmation: each line as delivered, refunded or still waiting now. */
async function currentConfirmation(
  tx: Executor,
  publicUrl: string,
  order: typeof orders.$inferSelect,
  status: PaidOrderStatus,
) {
  const rows = await orderLinesWithDeliveries(tx, order.id);
  const [owner] = order.userId
    ? await tx.select({ autoCreated: users.autoCreated }).from(users).where(eq(users.id, order.userId))
    : [];
  // What a late payment credited for units sold out meanwhile (staff refunds name their staff member).
  const [late] = await tx
    .select({ cents: sum(balanceLedger.amountCents).mapWith(Number) })
    .from(balanceLedger)
    .where(
      and(eq(balanceLedger.orderId, order.id), eq(balanceLedger.type, "refund"), isNull(balanceLedger.staffUserId)),
    );
  return orderConfirmationMail({
    to: order.email,
    orderId: order.id,
    publicUrl,
    status,
    lines: rows
      .filter(({ line }) => !line.isReplacement)
      .map(({ line, deliveredRows }) => ({
        title: line.title,
        subtitle: line.subtitle,
        quantity: line.quantity,
        delivered: Number(deliveredRows),
        manual: line.fulfilMode === "manual" && Number(deliveredRows) < line.quantity,
        refunded: line.refundedAt !== null,
      })),
    priceCents: order.priceCents,
    refundedCents: late?.cents ?? 0,
    autoCreatedAccount: owner?.autoCreated ?? false,
  });
}

/**
 * Mails the order confirmation again, with the order as it is now. Refused while a mail about the order
 * still waits in the outbox: a double click, or two staff at once, send it once.
 */
export async function resendOrderMail(
  deps: OrderActionDeps,
  actor: StaffActor,
  input: { orderId: string; now?: Date },
): Promise<{ message: string }> {
  return onLockedOrder(deps, actor, input, async (tx, order, now) => {
    if (!isPaidOrderStatus(order.status)) throw conflict(ORDER_ACTION_MESSAGES.resendNotPaid(order.status));
    const [waiting] = await tx
      .select({ id: mailOutbox.id })
      .from(mailOutbox)
      .where(and(eq(mailOutbox.orderId, order.id), eq(mailOutbox.status, "pending")))
      .limit(1);
    if (waiting) throw conflict(ORDER_ACTION_MESSAGES.mailWaiting);
    const mail = await currentConfirmation(tx, deps.config.publicUrl, order, order.status);
    await enqueueMail(tx, mail, now);
    await auditOrder(tx, actor, order, "order.mail.resend", {
      after: { mail: mail.subject, to: mail.to },
    });
    return { message: ORDER_ACTION_MESSAGES.resent };
  });
}
