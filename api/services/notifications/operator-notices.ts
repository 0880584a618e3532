import { eq, inArray } from "drizzle-orm";
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_EVENTS,
  type NotificationEvent,
  type NotificationRouting,
} from "../../../contract/notifications";
import { centsToUsd } from "../../../contract/money";
import type { Config } from "../../config";
import type { Executor } from "../../db/client";
import { newId } from "../../db/ids";
import { notificationOutbox, productOptions, storeSettings } from "../../db/schema";
import { enqueueMail } from "../../mail/outbox";
import { operatorNoticeMail } from "./operator-mail";

/*
 * The operator's notifications (ADR 030). Each event writes its notice in the transaction of the event
 * itself: a mail to OPERATOR_EMAIL through the mail outbox, and a row of notification_outbox that the
 * webhook sender (api/notifications/sender.ts) posts to NOTIFY_WEBHOOK_URL. Nothing is sent for a change
 * that rolls back, and nothing is lost when the process stops before sending. Owners choose which
 * events go to which channel (store_settings); a channel that is not configured gets nothing.
 *
 * What a notice carries is what the operator needs to act: ids, totals, product titles. Never a
 * credential, a customer's message or (where the id is enough) an email address.
 */

/** What the hooks need from the configuration: the channels and the store's address for links. */
export type NotifyDeps = Pick<Config, "publicUrl" | "notifications">;

export const NOTIFICATION_ROUTING_KEY = "notifications.routing";

type NoticeLine = {
  product: string;
  option: string;
  warranty: string;
  quantity: number;
  /** USD */
  price: number;
};

/** The `data` of each event, as the webhook's JSON carries it (docs/notifications.md). Amounts are USD. */
export type NoticeData = {
  "order.paid": {
    orderId: string;
    status: string;
    source: string;
    paymentMethod: string;
    total: number;
    currency: string;
    /** Credited to the customer's balance: units sold out before a late payment arrived. */
    refunded: number;
    lines: (NoticeLine & { delivered: number; manual: boolean })[];
  };
  "order.manual_delivery": { orderId: string; lines: NoticeLine[] };
  "stock.low": {
    productId: string;
    optionId: string;
    product: string;
    option: string;
    available: number;
    threshold: number;
  };
  "stock.sold_out": { productId: string; optionId: string; product: string; option: string };
  "ticket.opened": { ticketId: string; orderId: string | null };
  "ticket.reply": { ticketId: string; orderId: string | null };
  "request.created": {
    requestId: string;
    kind: "replacement" | "other";
    /** completed: an automatic replacement was delivered from stock at once. */
    status: "pending" | "completed";
    orderId: string;
    product: string;
  };
  "payment.amount_mismatch": {
    paymentId: string;
    orderId: string | null;
    purpose: "order" | "topup";
    gateway: string;
    providerEventId: string;
    expected: { amount: number; currency: string };
    received: { amount: number; currency: string };
  };
  "payment.late": {
    paymentId: string;
    orderId: string | null;
    purpose: "order" | "topup";
    gateway: string;
    amount: number;
    currency: string;
    /** What the payment was when the provider said it was paid after all. */
    previousStatus: "failed" | "expired";
  };
};

/**
 * One event to tell the operator about. `key` names this occurrence (an order id, a message id): with the
 * event it makes the webhook's idempotency key, the same on every retry, and a second notice with the
 * same key is dropped.
 */
export type OperatorNotice = {
  [E in NotificationEvent]: { event: E; key: string; data: NoticeData[E] };
}[NotificationEvent];

export const DEFAULT_ROUTING: NotificationRouting = Object.fromEntries(
  NOTIFICATION_CHANNELS.map((channel) => [
    channel,
    Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, true])),
  ]),
) as NotificationRouting;

/** The owner's choice; an event or channel never chosen (a new one, say) is on. */
export async function readNotificationRouting(db: Executor): Promise<NotificationRouting> {
  const [row] = await db
    .select({ value: storeSettings.value })
    .from(storeSettings)
    .where(eq(storeSettings.key, NOTIFICATION_ROUTING_KEY));
  const stored = (row?.value ?? {}) as Partial<Record<string, Partial<Record<string, unknown>>>>;
  const routing = structuredClone(DEFAULT_ROUTING);
  for (const channel of NOTIFICATION_CHANNELS) {
    for (const event of NOTIFICATION_EVENTS) {
      const chosen = stored[channel]?.[event];
      if (typeof chosen === "boolean") routing[channel][event] = chosen;
    }
  }
  return routing;
}

/**
 * Tells the operator about `notice` on the channels that are configured and chosen for its event, in the
 * caller's transaction. A notice whose key was already used is dropped (when the webhook is on, its
 * outbox row is the record of it).
 */
export async function notifyOperator(
  tx: Executor,
  deps: NotifyDeps,
  notice: OperatorNotice,
  now = new Date(),
): Promise<void> {
  const { operatorEmail, webhook } = deps.notifications;
  if (!operatorEmail && !webhook) return;
  const routing = await readNotificationRouting(tx);
  if (webhook && routing.webhook[notice.event]) {
    const id = newId();
    const written = await tx
      .insert(notificationOutbox)
      .values({
        id,
        event: notice.event,
        idempotencyKey: `${notice.event}:${notice.key}`,
        payload: { id, event: notice.event, occurredAt: now.toISOString(), data: notice.data },
        nextAttemptAt: now,
        createdAt: now,
      })
      .onConflictDoNothing()
      .returning({ id: notificationOutbox.id });
    if (written.length === 0) return;
  }
  if (operatorEmail && routing.mail[notice.event]) {
    await enqueueMail(tx, operatorNoticeMail({ to: operatorEmail, publicUrl: deps.publicUrl, notice }), now);
  }
}

type PaidOrder = {
  id: string;
  source: string;
  paymentMethod: string;
  priceCents: number;
  currency: string;
};
type PaidLine = {
  optionId: string;
  title: string;
  subtitle: string;
  quantity: number;
  priceCents: number;
  delivered: number;
  manual: boolean;
};

/** A paid order (any path: webhook, balance, a redeemed key, confirmed by hand), and its manual lines if any. */
export async function notifyOrderPaid(
  tx: Executor,
  deps: NotifyDeps,
  paid: { order: PaidOrder; lines: PaidLine[]; status: string; refundedCents: number },
  now = new Date(),
): Promise<void> {
  if (!deps.notifications.operatorEmail && !deps.notifications.webhook) return;
  const optionIds = [...new Set(paid.lines.map((line) => line.optionId))];
  const options =
    optionIds.length === 0
      ? []
      : await tx
          .select({ id: productOptions.id, title: productOptions.title })
          .from(productOptions)
          .where(inArray(productOptions.id, optionIds));
  const lines = paid.lines.map((line) => ({
    product: line.title,
    option: options.find((option) => option.id === line.optionId)?.title ?? "",
    warranty: line.subtitle,
    quantity: line.quantity,
    price: centsToUsd(line.priceCents),
    delivered: line.delivered,
    manual: line.manual,
  }));
  const { order } = paid;
  await notifyOperator(
    tx,
    deps,
    {
      event: "order.paid",
      key: order.id,
      data: {
        orderId: order.id,
        status: paid.status,
        source: order.source,
        paymentMethod: order.paymentMethod,
        total: centsToUsd(order.priceCents),
        currency: order.currency,
        refunded: centsToUsd(paid.refundedCents),
        lines,
      },
    },
    now,
  );
  const manual = lines
    .filter((line) => line.manual)
    .map(({ product, option, warranty, quantity, price }) => ({ product, option, warranty, quantity, price }));
  if (manual.length === 0) return;
  await notifyOperator(
    tx,
    deps,
    {
      event: "order.manual_delivery",
      key: order.id,
      data: { orderId: order.id, lines: manual },
    },
    now,
  );
}
