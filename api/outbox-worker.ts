import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Executor } from "./db/client";
import type { mailOutbox, notificationOutbox } from "./db/schema";
import type { Logger } from "./logger";
import { type JobName, countJobRun } from "./metrics";

/*
 * The one worker behind both outboxes (mail_outbox and notification_outbox, ADR 030): what is due is claimed
 * with FOR UPDATE SKIP LOCKED and a lease, so instances sharing a database never send one row at the same time
 * and no transaction stays open while a slow receiver answers; a failure is retried with backoff and, after
 * `maxAttempts`, marked failed for a person to look at. What "sending" means is the caller's.
 */

type OutboxTable = typeof mailOutbox | typeof notificationOutbox;

/** 30 s, 1 min, 2 min, ... capped at 2 h: about four hours from the first failure to giving up. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 2 * 60 * 60_000);
}

export type DrainResult = { sent: number; retrying: number; failed: number };

export type Outbox<T extends OutboxTable> = {
  table: T;
  /** A claimed row is invisible to other instances this long: longer than one attempt may take. */
  leaseMs: number;
  maxAttempts: number;
  batchSize?: number;
  /** Sends one row; throws when it was not delivered. */
  send(row: T["$inferSelect"]): Promise<void>;
  /** The failure in words fit for the back office and the log (never a secret or an address). */
  failureText(error: unknown): string;
  /** Called once per row and outcome, for its log line. */
  report(
    row: T["$inferSelect"],
    outcome: { attempts: number } & ({ sent: true } | { sent: false; givingUp: boolean; error: string }),
  ): void;
};

/** Sends every row that is due, once each, and answers what became of them. */
export async function drainOutbox<T extends OutboxTable>(
  db: Executor,
  outbox: Outbox<T>,
  now = new Date(),
): Promise<DrainResult> {
  const result: DrainResult = { sent: 0, retrying: 0, failed: 0 };
  // One table type at a time: the two outboxes share these columns, which is all this reads and writes.
  const table = outbox.table as typeof mailOutbox;
  for (;;) {
    const due = db
      .select({ id: table.id })
      .from(table)
      .where(and(eq(table.status, "pending"), lte(table.nextAttemptAt, now)))
      .orderBy(asc(table.nextAttemptAt), asc(table.id))
      .limit(outbox.batchSize ?? 20)
      .for("update", { skipLocked: true });
    const claimed = await db
      .update(table)
      .set({ nextAttemptAt: new Date(now.getTime() + outbox.leaseMs) })
      .where(inArray(table.id, due))
      .returning();
    if (claimed.length === 0) return result;
    for (const row of claimed as T["$inferSelect"][]) {
      const attempts = row.attempts + 1;
      try {
        await outbox.send(row);
        await db
          .update(table)
          .set({ status: "sent", attempts, sentAt: now, lastError: null })
          .where(eq(table.id, row.id));
        result.sent++;
        outbox.report(row, { attempts, sent: true });
      } catch (error) {
        const lastError = outbox.failureText(error).slice(0, 500);
        const givingUp = attempts >= outbox.maxAttempts;
        await db
          .update(table)
          .set({
            status: givingUp ? "failed" : "pending",
            attempts,
            lastError,
            nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
          })
          .where(eq(table.id, row.id));
        if (givingUp) result.failed++;
        else result.retrying++;
        outbox.report(row, { attempts, sent: false, givingUp, error: lastError });
      }
    }
  }
}

export type OutboxWorker = { stop(): Promise<void> };

/** Runs `drain` every `intervalMs` (each run after the last one ended) until stopped; each run is counted as `job`. */
export function startOutboxWorker(
  name: string,
  job: JobName,
  logger: Logger,
  drain: () => Promise<unknown>,
  options: { intervalMs?: number; onStop?: () => void } = {},
): OutboxWorker {
  const intervalMs = options.intervalMs ?? 2_000;
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();
  const tick = () => {
    running = drain()
      .then(() => countJobRun(job, "ok"))
      .catch((error) => {
        countJobRun(job, "error");
        logger.error(`${name} flush failed`, { error });
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
      options.onStop?.();
    },
  };
}
