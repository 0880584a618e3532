import { z } from "zod";

/*
 * The operator's notifications (ADR 030): what can happen, and the channels each may go to. The
 * event names are part of the webhook's contract (docs/notifications.md): add, never rename.
 */

export const NOTIFICATION_EVENTS = [
  "order.paid",
  "order.manual_delivery",
  "stock.low",
  "stock.sold_out",
  "ticket.opened",
  "ticket.reply",
  "request.created",
  "payment.amount_mismatch",
  "payment.late",
] as const;
export type NotificationEvent = (typeof NOTIFICATION_EVENTS)[number];

export const NOTIFICATION_EVENT_LABELS: Record<NotificationEvent, string> = {
  "order.paid": "An order was paid",
  "order.manual_delivery": "An order waits for manual delivery",
  "stock.low": "An option fell under its low-stock threshold",
  "stock.sold_out": "An option sold out",
  "ticket.opened": "A customer opened a ticket",
  "ticket.reply": "A customer replied on a ticket",
  "request.created": "A replacement or other request arrived",
  "payment.amount_mismatch": "A payment's amount or currency did not match",
  "payment.late": "A payment arrived after its order expired",
};

export const NOTIFICATION_CHANNELS = ["mail", "webhook"] as const;
export type NotificationChannel = (typeof NOTIFICATION_CHANNELS)[number];

/** For each channel, whether each event goes to it. */
export type NotificationRouting = Record<NotificationChannel, Record<NotificationEvent, boolean>>;

export const NOTIFICATION_DELIVERY_STATUSES = ["pending", "sent", "failed"] as const;
export const NOTIFICATION_DELIVERIES_PAGE_SIZE = 20;

export const notificationEventField = z.enum(NOTIFICATION_EVENTS, {
  errorMap: () => ({ message: "Unknown notification event" }),
});
