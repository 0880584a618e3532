import { type SQL, eq } from "drizzle-orm";
import {
  NOTIFICATION_CHANNELS,
  NOTIFICATION_DELIVERIES_PAGE_SIZE,
  NOTIFICATION_EVENTS,
  NOTIFICATION_EVENT_LABELS,
  type NotificationChannel,
  type NotificationEvent,
  type NotificationRouting,
} from "../../../contract/notifications";
import type {
  ChannelStatus,
  DeliveryPage,
  NotificationDelivery,
  RoutingView,
} from "../../../contract/answers/admin-notifications";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { notificationOutbox, storeSettings } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { NOTIFICATION_ROUTING_KEY, readNotificationRouting } from "./operator-notices";

import { newestFirst, readRecordsPage } from "../shared/paging";
/*
 * The owner's notification settings (ADR 030): which events go to which channel, whether each channel is
 * configured, and the webhook's recent deliveries with a retry for the failed ones. Every change is audited.
 */

export const NOTIFICATION_MESSAGES = {
  saved: "Notification settings saved",
  notFound: "Notification not found",
  notFailed: "Only a failed notification can be retried: this one is not failed",
  retrying: "The notification will be sent again within a few seconds",
} as const;

export type DeliveryQuery = { page: number; status: "" | NotificationDelivery["status"] };

export function channelStatus(config: Pick<Config, "notifications">): ChannelStatus {
  const { operatorEmail, webhook } = config.notifications;
  return {
    mail: { configured: !!operatorEmail, address: operatorEmail ?? null },
    webhook: { configured: !!webhook, origin: webhook ? new URL(webhook.url).origin : null },
  };
}

function routingView(routing: NotificationRouting): RoutingView {
  return NOTIFICATION_EVENTS.map((event) => ({
    event,
    label: NOTIFICATION_EVENT_LABELS[event],
    mail: routing.mail[event],
    webhook: routing.webhook[event],
  }));
}

export async function readRoutingView(db: Executor): Promise<RoutingView> {
  return routingView(await readNotificationRouting(db));
}

/** The webhook's notifications, newest first, NOTIFICATION_DELIVERIES_PAGE_SIZE a page. */
export async function listDeliveries(db: Executor, query: DeliveryQuery): Promise<DeliveryPage> {
  const where: SQL | undefined = query.status ? eq(notificationOutbox.status, query.status) : undefined;
  return readRecordsPage(
    db,
    db.select().from(notificationOutbox).$dynamic(),
    {
      counted: notificationOutbox,
      where,
      orderBy: newestFirst(notificationOutbox),
      page: query.page,
      pageSize: NOTIFICATION_DELIVERIES_PAGE_SIZE,
    },
    (row) => ({
      _id: row.id,
      event: row.event,
      status: row.status,
      attempts: row.attempts,
      lastError: row.lastError,
      createdAt: row.createdAt.toISOString(),
      nextAttemptAt: row.nextAttemptAt.toISOString(),
      sentAt: row.sentAt?.toISOString() ?? null,
    }),
  );
}

/** How the audit log shows one event's routing: the channels it goes to. */
const channelsOf = (routing: NotificationRouting, event: NotificationEvent) =>
  NOTIFICATION_CHANNELS.filter((channel) => routing[channel][event]).join(", ") || "none";

/**
 * Saves which events each channel gets (the events not named are off). The settings row is locked
 * first, so two owners saving at once are audited against what each really replaced.
 */
export async function saveNotificationRouting(
  db: Database,
  actor: StaffActor,
  input: Record<NotificationChannel, NotificationEvent[]>,
  now = new Date(),
): Promise<RoutingView> {
  return db.transaction(async (tx) => {
    await tx
      .insert(storeSettings)
      .values({ key: NOTIFICATION_ROUTING_KEY, value: {} })
      .onConflictDoNothing({ target: storeSettings.key });
    await tx.select().from(storeSettings).where(eq(storeSettings.key, NOTIFICATION_ROUTING_KEY)).for("update");
    const before = await readNotificationRouting(tx);
    const after = Object.fromEntries(
      NOTIFICATION_CHANNELS.map((channel) => [
        channel,
        Object.fromEntries(NOTIFICATION_EVENTS.map((event) => [event, input[channel].includes(event)])),
      ]),
    ) as NotificationRouting;
    const changed = NOTIFICATION_EVENTS.filter((event) => channelsOf(before, event) !== channelsOf(after, event));
    if (changed.length > 0) {
      await tx
        .update(storeSettings)
        .set({ value: after, updatedAt: now })
        .where(eq(storeSettings.key, NOTIFICATION_ROUTING_KEY));
      await recordAudit(tx, actor, {
        action: "notifications.routing",
        objectType: "setting",
        objectId: NOTIFICATION_ROUTING_KEY,
        objectLabel: "Notifications: which events go where",
        before: Object.fromEntries(changed.map((event) => [event, channelsOf(before, event)])),
        after: Object.fromEntries(changed.map((event) => [event, channelsOf(after, event)])),
      });
    }
    return routingView(after);
  });
}

/** A failed notification goes back in the queue for one more attempt, due now. */
export async function retryNotification(
  db: Database,
  actor: StaffActor,
  notificationId: string,
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [row] = await tx
      .select()
      .from(notificationOutbox)
      .where(eq(notificationOutbox.id, notificationId))
      .for("update");
    if (!row) throw notFound(NOTIFICATION_MESSAGES.notFound);
    if (row.status !== "failed") throw conflict(NOTIFICATION_MESSAGES.notFailed);
    await tx
      .update(notificationOutbox)
      .set({ status: "pending", nextAttemptAt: now })
      .where(eq(notificationOutbox.id, row.id));
    await recordAudit(tx, actor, {
      action: "notifications.retry",
      objectType: "notification",
      objectId: row.id,
      objectLabel: row.event,
      before: { status: "failed" },
      after: { status: "pending" },
    });
  });
}
