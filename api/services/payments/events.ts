import { and, eq } from "drizzle-orm";
import { countPaymentOutcome, countWebhook } from "../../metrics";
import type { Executor } from "../../db/client";
import { orderProducts, orders, payments, webhookEvents } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { gatewayForWebhook } from "../../payments/registry";
import { type SandboxOutcome, signSandboxEvent } from "../../payments/sandbox";
import { type HostedGatewayName, type PaymentEvent, WebhookRejected } from "../../payments/types";
import { centsToUsd } from "../../../contract/money";
import { isPaidOrderStatus } from "../../../contract/order";
import { creditBalance } from "./balance";
import { type OperatorNotice, notifyOperator } from "../notifications/operator-notices";
import { type OrderContext, closeUnpaidOrder, fulfilPaidOrder } from "../order-settlement";
import { type PaymentDeps, paymentGatewaysFor } from "./checkout";
import type { SandboxPayment, SandboxSubmitted, WebhookOutcome } from "../../../contract/answers/webhooks";

export type { WebhookOutcome };

/**
 * A verified event for a payment that is not in our database, or not findable yet. Answering 2xx would make
 * the provider stop and the payment would be lost, so the answer is a 503, which every provider retries;
 * nothing of the event is kept, so a later delivery is applied.
 */
export class PaymentNotFoundYet extends AppError {
  constructor() {
    super(503, "The payment this event names is not known yet. Please deliver it again later.");
    this.name = "PaymentNotFoundYet";
  }
}

/**
 * One webhook delivery, from raw bytes to its effect: the adapter verifies it (throws WebhookRejected),
 * then the event is applied following the caller contract in api/payments/types.ts.
 */
export async function receiveWebhook(
  deps: PaymentDeps,
  gatewayName: string,
  rawBody: string,
  headers: Headers,
  now = new Date(),
): Promise<WebhookOutcome> {
  let outcome = "error";
  try {
    const gateway = gatewayForWebhook(paymentGatewaysFor(deps.config), gatewayName);
    const event = await gateway.parseWebhook(rawBody, headers, now);
    const applied = event.type === "ignored" ? "ignored" : await applyPaymentEvent(deps, gateway.name, event, now);
    outcome = applied;
    return applied;
  } catch (error) {
    if (error instanceof WebhookRejected) outcome = "rejected";
    else if (error instanceof PaymentNotFoundYet) outcome = "payment_not_found";
    throw error;
  } finally {
    // The gateway's name comes from the URL: the label keeps only names the store knows.
    countWebhook(gatewayName, outcome);
  }
}

/**
 * Thrown inside the transaction to undo the webhook_events row of an event that must change nothing.
 * `anomaly` is what the operator is told once the transaction is undone.
 */
class EventChangesNothing extends Error {
  constructor(readonly anomaly?: OperatorNotice) {
    super("the event changes nothing");
  }
}

/**
 * Our own payment id comes first: it travels to the provider before the provider's reference is stored,
 * so it finds the payment even when the reference is not written yet. Only an event without it falls back
 * to the reference.
 */
async function findEventPayment(tx: Executor, gateway: HostedGatewayName, event: PaymentEvent) {
  const [found] = await tx
    .select({ id: payments.id, orderId: payments.orderId, gateway: payments.gateway })
    .from(payments)
    .where(
      event.paymentId !== undefined
        ? eq(payments.id, event.paymentId)
        : and(eq(payments.gateway, gateway), eq(payments.providerReference, event.providerReference)),
    );
  return found;
}

export async function applyPaymentEvent(
  deps: PaymentDeps,
  gateway: HostedGatewayName,
  event: PaymentEvent,
  now = new Date(),
): Promise<WebhookOutcome> {
  const log = { gateway, eventId: event.eventId, providerEventType: event.providerEventType };
  try {
    return await deps.db.transaction(async (tx) => {
      // 1. Idempotency: the first delivery inserts the row; a concurrent duplicate waits on the key, then does nothing.
      const recorded = await tx
        .insert(webhookEvents)
        .values({ gateway, eventId: event.eventId, receivedAt: now })
        .onConflictDoNothing()
        .returning({ eventId: webhookEvents.eventId });
      if (recorded.length === 0) return "duplicate" as const;

      // 2. Our payment, of THIS gateway, with this reference (stored now if the checkout had not yet).
      const found = await findEventPayment(tx, gateway, event);
      if (!found) {
        deps.logger.warn("webhook for a payment we cannot find; the provider will retry", {
          ...log,
          paymentId: event.paymentId,
        });
        throw new PaymentNotFoundYet();
      }
      if (found.gateway !== gateway) {
        deps.logger.warn("webhook names another gateway's payment; ignored", { ...log, paymentId: found.id });
        throw new EventChangesNothing();
      }
      // Locks in the order the expiry job takes them (order, then payment), so the two never deadlock.
      if (found.orderId)
        await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, found.orderId)).for("update");
      const [payment] = await tx.select().from(payments).where(eq(payments.id, found.id)).for("update");
      if (payment.providerReference === null) {
        await tx
          .update(payments)
          .set({ providerReference: event.providerReference })
          .where(eq(payments.id, payment.id));
      } else if (payment.providerReference !== event.providerReference) {
        deps.logger.warn("webhook reference does not match the payment's; ignored", { ...log, paymentId: payment.id });
        throw new EventChangesNothing();
      }
      await tx
        .update(webhookEvents)
        .set({ paymentId: payment.id })
        .where(and(eq(webhookEvents.gateway, gateway), eq(webhookEvents.eventId, event.eventId)));

      if (event.type === "paid") {
        // 3. The amount and currency must be what we asked for.
        if (event.amountCents !== payment.amountCents || event.currency !== payment.currency) {
          deps.logger.warn("webhook amount or currency does not match the payment; ignored", {
            ...log,
            paymentId: payment.id,
            expected: `${payment.amountCents} ${payment.currency}`,
            received: `${event.amountCents} ${event.currency}`,
          });
          throw new EventChangesNothing({
            event: "payment.amount_mismatch",
            key: `${gateway}:${event.eventId}`,
            data: {
              paymentId: payment.id,
              orderId: payment.orderId,
              purpose: payment.purpose,
              gateway,
              providerEventId: event.eventId,
              expected: { amount: centsToUsd(payment.amountCents), currency: payment.currency },
              received: { amount: centsToUsd(event.amountCents), currency: event.currency },
            },
          });
        }
        // 4. Forward only, and settled as staff's confirmation by hand settles it.
        return settlePaidPayment(tx, deps.config, payment, now);
      }

      // failed / expired: only a pending payment moves, and its pending order ends and frees its stock.
      if (payment.status !== "pending") return "ignored" as const;
      await tx.update(payments).set({ status: event.type }).where(eq(payments.id, payment.id));
      countPaymentOutcome(payment.gateway, event.type);
      if (payment.purpose === "order") {
        const [order] = await tx
          .select({ id: orders.id, status: orders.status, couponId: orders.couponId })
          .from(orders)
          .where(eq(orders.id, payment.orderId!))
          .for("update");
        if (order.status === "pending") {
          await closeUnpaidOrder(tx, order, event.type === "expired" ? "expired" : "cancelled", now);
        }
      }
      return "applied" as const;
    });
  } catch (error) {
    if (!(error instanceof EventChangesNothing)) throw error;
    const { anomaly } = error;
    if (anomaly) await deps.db.transaction((tx) => notifyOperator(tx, deps.config, anomaly, now));
    return "ignored";
  }
}

/**
 * A payment is paid: it moves to paid, and what it pays for is settled (a top-up credited, an order
 * delivered, late or not). A verified webhook and staff's confirmation by hand (orders/admin-actions.ts)
 * both come here, so a payment is settled one way whoever reports it. The caller holds the order's and
 * then the payment's row lock. Forward only: a payment already paid (or refunded) is a duplicate and
 * changes nothing; paid after failed or expired is a late payment, honoured.
 */
export async function settlePaidPayment(
  tx: Executor,
  ctx: OrderContext,
  payment: typeof payments.$inferSelect,
  now: Date,
): Promise<"applied" | "duplicate"> {
  if (payment.status === "paid" || payment.status === "refunded") return "duplicate";
  await tx.update(payments).set({ status: "paid", paidAt: now }).where(eq(payments.id, payment.id));
  countPaymentOutcome(payment.gateway, "paid");
  // Paid after failed/expired is a late payment: honoured, and the operator is told.
  if (payment.status === "failed" || payment.status === "expired") {
    await notifyOperator(
      tx,
      ctx,
      {
        event: "payment.late",
        key: payment.id,
        data: {
          paymentId: payment.id,
          orderId: payment.orderId,
          purpose: payment.purpose,
          gateway: payment.gateway,
          amount: centsToUsd(payment.amountCents),
          currency: payment.currency,
          previousStatus: payment.status,
        },
      },
      now,
    );
  }
  if (payment.purpose === "topup") {
    await creditBalance(tx, payment.userId, payment.amountCents, "in", {
      paymentId: payment.id,
      note: "Balance top-up",
      now,
    });
    return "applied";
  }
  const [order] = await tx
    .select({ id: orders.id, status: orders.status })
    .from(orders)
    .where(eq(orders.id, payment.orderId!))
    .for("update");
  if (isPaidOrderStatus(order.status)) return "applied";
  await fulfilPaidOrder(tx, ctx, order.id, now);
  return "applied";
}

// ---------------------------------------------------------------- sandbox

/** What the sandbox page shows: the stored amount and where the payment belongs. */
export async function readSandboxPayment(db: Executor, paymentId: string): Promise<SandboxPayment> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.gateway, "sandbox")));
  if (!payment) throw notFound("Payment not found");
  // The payment page lists what is paid for, so the amount asked is never a figure without its lines.
  const [lines, [order]] = payment.orderId
    ? await Promise.all([
        db
          .select({
            title: orderProducts.title,
            subtitle: orderProducts.subtitle,
            quantity: orderProducts.quantity,
            priceCents: orderProducts.priceCents,
          })
          .from(orderProducts)
          .where(eq(orderProducts.orderId, payment.orderId))
          .orderBy(orderProducts.createdAt, orderProducts.id),
        db.select({ discountCents: orders.discountCents }).from(orders).where(eq(orders.id, payment.orderId)),
      ])
    : [[], []];
  return {
    paymentId: payment.id,
    orderId: payment.orderId,
    purpose: payment.purpose,
    amount: payment.amountCents / 100,
    status: payment.status,
    lines: lines.map(({ priceCents, ...line }) => ({ ...line, price: centsToUsd(priceCents) })),
    discount: centsToUsd(order?.discountCents ?? 0),
  };
}

/**
 * The sandbox page's Pay and Cancel buttons: signs the event as the sandbox "provider" with the STORED
 * amount and currency, and sends it through receiveWebhook, the same code path and checks as
 * POST /v1/webhooks/sandbox.
 */
export async function submitSandboxPayment(
  deps: PaymentDeps,
  paymentId: string,
  outcome: SandboxOutcome,
  now = new Date(),
): Promise<SandboxSubmitted> {
  if (!paymentGatewaysFor(deps.config).has("sandbox")) throw notFound("Payment not found");
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.gateway, "sandbox")));
  if (!payment) throw notFound("Payment not found");
  const signed = signSandboxEvent(
    { paymentId, amountCents: payment.amountCents, currency: payment.currency, outcome },
    deps.config,
    now,
  );
  const result = await receiveWebhook(deps, "sandbox", signed.body, new Headers(signed.headers), now);
  return { outcome: result, orderId: payment.orderId, purpose: payment.purpose };
}
