import type { Config } from "../config";
import type { Executor } from "../db/client";
import { notificationOutbox } from "../db/schema";
import type { Logger } from "../logger";
import { type DrainResult, type Outbox, drainOutbox, startOutboxWorker } from "../outbox-worker";
import { NOTIFICATION_HEADERS, signNotification } from "./signature";

/*
 * Posts the operator's notifications (notification_outbox) to NOTIFY_WEBHOOK_URL through the same outbox
 * worker as the mail (api/outbox-worker.ts, ADR 030): claimed with a lease, retried with backoff (30 s doubling
 * to 2 h) and, after MAX_NOTIFICATION_ATTEMPTS, marked failed.
 */

export const MAX_NOTIFICATION_ATTEMPTS = 8;
/** A receiver that does not answer in this time failed this attempt. */
export const WEBHOOK_TIMEOUT_MS = 10_000;
/** Longer than a timed-out attempt: a claimed row comes back to every instance only after its sender gave up on it. */
const CLAIM_LEASE_MS = 60_000;

export type NotificationFlushResult = DrainResult;

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
  const webhook = deps.config.notifications.webhook;
  if (!webhook) return { sent: 0, retrying: 0, failed: 0 };
  return drainOutbox(deps.db, notificationOutboxOf(deps, webhook, now), now);
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

/** The notification outbox as the outbox worker drives it: sending is a signed POST to the webhook. */
function notificationOutboxOf(
  deps: SenderDeps,
  webhook: { url: string; secret: string },
  now: Date,
): Outbox<typeof notificationOutbox> {
  const timeoutMs = deps.timeoutMs ?? WEBHOOK_TIMEOUT_MS;
  return {
    table: notificationOutbox,
    leaseMs: CLAIM_LEASE_MS,
    maxAttempts: MAX_NOTIFICATION_ATTEMPTS,
    async send(row) {
      const body = JSON.stringify(row.payload);
      const timestamp = Math.floor(now.getTime() / 1000);
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
    },
    failureText: (error) => failureText(error, timeoutMs),
    report(row, outcome) {
      const fields = { notificationId: row.id, event: row.event, attempts: outcome.attempts };
      if (outcome.sent) deps.logger.info("notification sent", fields);
      else {
        deps.logger[outcome.givingUp ? "error" : "warn"]("notification not sent", {
          ...fields,
          givingUp: outcome.givingUp,
          error: outcome.error,
        });
      }
    },
  };
}

export type NotificationSender = { stop(): Promise<void> };

/** Posts due notifications every `intervalMs` until stopped; does nothing when no webhook is configured. */
export function startNotificationSender(
  deps: Omit<SenderDeps, "timeoutMs">,
  options: { intervalMs?: number } = {},
): NotificationSender {
  if (!deps.config.notifications.webhook) return { stop: async () => {} };
  return startOutboxWorker(
    "notification outbox",
    "notifications",
    deps.logger,
    () => flushNotifications(deps),
    options,
  );
}
