import type { Config } from "./config";
import type { Database } from "./db/client";
import type { Logger } from "./logger";
import { countJobRun } from "./metrics";
import { encryptPlainStock, rotateCredentialBatch, untilDone } from "./services/stock/credential-keys";
import { purgeExpiredIdempotencyKeys } from "./services/guards/idempotency";
import { EXPIRY_BATCH_SIZE, expireUnpaidOrders } from "./services/order-settlement";
import { RETENTION_INTERVAL_MS, applyRetention } from "./services/privacy/retention";

export type JobRunner = { stop(): Promise<void> };

/**
 * Expires unpaid orders and releases their stock, and forgets expired Idempotency-Key answers, every
 * `intervalMs`. Every instance may run it: expireUnpaidOrders takes its orders with FOR UPDATE SKIP
 * LOCKED, so instances never expire the same order twice nor wait on one another.
 */
export function startOrderExpiry(
  deps: { db: Database; logger: Logger },
  options: { intervalMs?: number } = {},
): JobRunner {
  const intervalMs = options.intervalMs ?? 60_000;
  let running: Promise<void> | undefined;
  const tick = async () => {
    try {
      // A full batch means more may be due: keep going until a batch comes back short.
      let expired: number;
      do {
        expired = await expireUnpaidOrders(deps.db);
        if (expired > 0) deps.logger.info("unpaid orders expired", { expired });
      } while (expired === EXPIRY_BATCH_SIZE);
      await purgeExpiredIdempotencyKeys(deps.db);
      countJobRun("order-expiry", "ok");
    } catch (error) {
      countJobRun("order-expiry", "error");
      deps.logger.error("order expiry failed", { error });
    }
  };
  const timer = setInterval(() => {
    if (!running) running = tick().finally(() => (running = undefined));
  }, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * The retention rules (ADR 044) at start, then every `intervalMs` (an hour). Every instance may run it:
 * applyRetention takes an advisory lock and reads when the rules last ran, so across instances they run once an hour.
 */
export function startRetention(
  deps: { db: Database; config: Config; logger: Logger },
  options: { intervalMs?: number } = {},
): JobRunner {
  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  let running: Promise<void> | undefined;
  const tick = async () => {
    try {
      const result = await applyRetention(deps, { intervalMs });
      // Counts only: what was removed is gone, and none of it belongs in a log line.
      if (result) deps.logger.info("retention applied", { retentionDays: deps.config.retentionDays, ...result });
      // A turn another instance took, or one not yet due, is a run without an error too.
      countJobRun("retention", "ok");
    } catch (error) {
      countJobRun("retention", "error");
      deps.logger.error("retention failed", { error });
    }
  };
  const run = () => {
    if (!running) running = tick().finally(() => (running = undefined));
  };
  run();
  const timer = setInterval(run, intervalMs);
  timer.unref();
  return {
    async stop() {
      clearInterval(timer);
      await running;
    },
  };
}

/**
 * At start, brings every stock row under the current CREDENTIALS_KEY in the background (ADR 056): rows an upgrade
 * found plain are encrypted, rows of an older key (CREDENTIALS_KEY=new,old) re-encrypted. Batches are short and
 * safe beside checkouts and other instances doing the same; the store serves meanwhile.
 */
export function startCredentialSealing(deps: { db: Database; logger: Logger }): JobRunner {
  let stopped = false;
  const whileRunning = (batch: () => Promise<number>) => () => (stopped ? Promise.resolve(0) : batch());
  const running = (async () => {
    try {
      const encrypted = await untilDone(whileRunning(() => encryptPlainStock(deps.db)));
      const rotated = await untilDone(whileRunning(() => rotateCredentialBatch(deps.db)));
      // Counts and key ids only: never a key or a credential.
      if (encrypted > 0 || rotated > 0)
        deps.logger.info("credentials sealed under the current key", { encrypted, rotated });
    } catch (error) {
      deps.logger.error("sealing credentials failed", { error });
    }
  })();
  return {
    async stop() {
      stopped = true;
      await running;
    },
  };
}
