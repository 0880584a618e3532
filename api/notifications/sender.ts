import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Config } from "../config";
import type { Executor } from "../db/client";
import { notificationOutbox } from "../db/schema";
import type { Logger } from "../logger";
import { retryDelayMs } from "../mail/sender";
import { NOTIFICATION_HEADERS, signNotification } from "./signature";
import { countJobRun } from "../metrics";

/*
 * Posts the operator's notifications (notification_outbox) to NOTIFY_WEBHOOK_URL, like the mailer sends
 * mail (ADR 030): due rows are claimed with FOR UPDATE SKIP LOCKED and a lease, so instances sharing a
 * database never post one notification at the same time and no transaction waits on the receiver; a
 * failure is retried with backoff (30 s doubling to 2 h) and, after MAX_NOTIFICATION_ATTEMPTS, marked failed.
 */

export const MAX_NOTIFICATION_ATTEMPTS = 8;
/** A receiver that does not answer in this time failed this attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Longer than a timed-out attempt: a claimed row comes back to every instance only after its sender gave up on it. */
const CLAIM_LEASE_MS = 60_000;
const BATCH_SIZE = 20;

export type NotificationFlushResult = { sent: number; retrying: number; failed: number };

type SenderDeps = {
  db: Executor;
  config: Pick<Config, "notifications">;
  logger: Logger;
  /** Tests shorten the timeout. */
  timeoutMs?: number;
};

/**
 * Posts every notification that is due, once each, and answers what became of them. Nothing is claimed
 * when no webhook is configured: the rows wait, and are sent once it is.
 */
export async function flushNotifications(deps: SenderDeps, now = new Date()): Promise<NotificationFlushResult> {
  const result: NotificationFlushResult = { sent: 0, retrying: 0, failed: 0 };
  const webhook = deps.config.notifications.webhook;
  if (!webhook) return result;
  for (;;) {
    const claimed = await claimDueNotifications(deps.db, now);
    if (claimed.length === 0) return result;
    for (const row of claimed) await post(deps, webhook, row, result, now);
  }
}

async function claimDueNotifications(db: Executor, now: Date) {
  const due = db
    .select({ id: notificationOutbox.id })
    .from(notificationOutbox)
    .where(and(eq(notificationOutbox.status, "pending"), lte(notificationOutbox.nextAttemptAt, now)))
    .orderBy(asc(notificationOutbox.nextAttemptAt), asc(notificationOutbox.id))
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  return db
    .update(notificationOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
    .where(inArray(notificationOutbox.id, due))
    .returning();
}

/** Why an attempt failed, in words fit for the back office and the log: never the URL (it may hold a token). */
function failureText(error: unknown, timeoutMs: number): string {
  if (error instanceof HttpRefusal) return `answered HTTP ${error.status}`;
  if (error instanceof Error && (error.name === "TimeoutError" || error.name === "AbortError")) {
    return `no answer within ${Math.round(timeoutMs / 1000)} s`;
  }
  const code = (error as { cause?: { code?: unknown } })?.cause?.code;
  return typeof code === "string" ? `could not connect (${code})` : "could not connect";
}

class HttpRefusal extends Error {
  constructor(readonly status: number) {
    super(`HTTP ${status}`);
  }
}

async function post(
  deps: SenderDeps,
  webhook: { url: string; secret: string },
  row: typeof notificationOutbox.$inferSelect,
  result: NotificationFlushResult,
  now: Date,
): Promise<void> {
  const attempts = row.attempts + 1;
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  const body = JSON.stringify(row.payload);
  const timestamp = Math.floor(now.getTime() / 1000);
  try {
    const response = await fetch(webhook.url, {
      method: "POST",
      headers: {
        "content-type": "application/json",
        "user-agent": "store-notifications/1",
        [NOTIFICATION_HEADERS.event]: row.event,
        [NOTIFICATION_HEADERS.timestamp]: String(timestamp),
        [NOTIFICATION_HEADERS.signature]: signNotification(webhook.secret, timestamp, body),
        [NOTIFICATION_HEADERS.idempotencyKey]: row.idempotencyKey,
      },
      body,
      // A redirect is not an answer: the signed request goes only where it was configured to.
      redirect: "manual",
      signal: AbortSignal.timeout(timeoutMs),
    });
    await response.body?.cancel();
    if (response.status < 200 || response.status > 299) throw new HttpRefusal(response.status);
    await deps.db
      .update(notificationOutbox)
      .set({ status: "sent", attempts, sentAt: now, lastError: null })
      .where(eq(notificationOutbox.id, row.id));
    result.sent++;
    deps.logger.info("notification sent", { notificationId: row.id, event: row.event, attempts });
  } catch (error) {
    const lastError = failureText(error, timeoutMs);
    const givingUp = attempts >= MAX_NOTIFICATION_ATTEMPTS;
    await deps.db
      .update(notificationOutbox)
      .set({
        status: givingUp ? "failed" : "pending",
        attempts,
        lastError,
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
      })
      .where(eq(notificationOutbox.id, row.id));
    if (givingUp) result.failed++;
    else result.retrying++;
    deps.logger[givingUp ? "error" : "warn"]("notification not sent", {
      notificationId: row.id,
      event: row.event,
      attempts,
      givingUp,
      error: lastError,
    });
  }
}

export type NotificationSender = { stop(): Promise<void> };

/** Posts due notifications every `intervalMs` until stopped; does nothing when no webhook is configured. */
export function startNotificationSender(
  deps: Omit<SenderDeps, "timeoutMs">,
  options: { intervalMs?: number } = {},
): NotificationSender {
  if (!deps.config.notifications.webhook) return { stop: async () => {} };
  const intervalMs = options.intervalMs ?? 2_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = flushNotifications(deps)
      .then(() => countJobRun("notifications", "ok"))
      .catch((error) => {
        countJobRun("notifications", "error");
        deps.logger.error("notification outbox flush failed", { error });
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  tick();
  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
    },
  };
}
