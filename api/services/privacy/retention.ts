import { readdir, rm, stat } from "node:fs/promises";
import path from "node:path";
import { and, eq, inArray, isNotNull, isNull, lt, lte, ne, notExists, or, sql } from "drizzle-orm";
import type { Config } from "../../config";
import { type Database, type Executor, rowsOf } from "../../db/client";
import {
  knownDevices,
  mailOutbox,
  orders,
  passwordResets,
  payments,
  rateLimits,
  sessions,
  signInChallenges,
  storeSettings,
  tickets,
  users,
  webhookEvents,
} from "../../db/schema";
import { outboxFolder } from "../../mail/transport";
import { purgeExpiredIdempotencyKeys } from "../guards/idempotency";
import { KNOWN_DEVICE_LIFETIME_MS } from "../accounts/known-devices";

/*
 * Keeping nothing longer than needed (issue 29, ADR 044). Once an hour, across every instance, what is no longer
 * needed goes: unpaid orders older than RETENTION_DAYS and the accounts guest checkouts made that never paid, guest
 * tickets quiet for that long, client addresses older than that (orders, rate-limit counters, the audit log's cut to
 * their network), ended sessions, expired codes, challenges and Idempotency-Key answers, and sent mail. Paid orders
 * and the accounts that paid are never touched.
 */

const DAY_MS = 24 * 60 * 60 * 1000;
/** Any fixed number: names the advisory lock that lets one instance at a time apply the rules. */
const RETENTION_LOCK = 7_400_044;
/** When the rules last ran, kept in store_settings so instances share one schedule. */
export const RETENTION_LAST_RUN_KEY = "retention.lastRunAt";
/** How often the rules run at most, whichever instance asks. */
export const RETENTION_INTERVAL_MS = 60 * 60_000;

export type RetentionResult = {
  unpaidOrders: number;
  guestAccounts: number;
  guestTickets: number;
  orderAddresses: number;
  rateLimitCounters: number;
  auditAddresses: number;
  sessions: number;
  devices: number;
  resetCodes: number;
  challenges: number;
  idempotencyKeys: number;
  mails: number;
  mailFiles: number;
};

/** Orders that never became paid: nothing was delivered, no money moved. */
const unpaid = and(inArray(orders.status, ["expired", "cancelled"]), isNull(orders.paidAt));

async function removeUnpaidOrders(tx: Executor, cutoff: Date): Promise<number> {
  const stale = tx
    .select({ id: orders.id })
    .from(orders)
    .where(and(unpaid, lt(orders.createdAt, cutoff)));
  const stalePayments = tx
    .select({ id: payments.id })
    .from(payments)
    .where(and(inArray(payments.orderId, stale), ne(payments.status, "paid")));
  // A provider's event id stays (a repeat must still be recognised), without the payment it named.
  await tx.update(webhookEvents).set({ paymentId: null }).where(inArray(webhookEvents.paymentId, stalePayments));
  await tx.delete(payments).where(and(inArray(payments.orderId, stale), ne(payments.status, "paid")));
  // Lines, coupon redemptions and anything else hanging on an unpaid order go with it (on delete cascade).
  const removed = await tx
    .delete(orders)
    .where(and(unpaid, lt(orders.createdAt, cutoff)))
    .returning({ id: orders.id });
  return removed.length;
}

/**
 * Accounts a guest checkout made (ADR 019) that never paid: no order left (the unpaid ones went above), no payment
 * that went through, no balance. Their tickets, carts and codes go with them (on delete cascade).
 */
async function removeNeverPaidGuestAccounts(tx: Executor, cutoff: Date): Promise<number> {
  const candidates = tx
    .select({ id: users.id })
    .from(users)
    .where(
      and(
        eq(users.autoCreated, true),
        eq(users.role, "customer"),
        isNull(users.deletedAt),
        eq(users.balanceCents, 0),
        lt(users.createdAt, cutoff),
        notExists(tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, users.id))),
        notExists(
          tx
            .select({ id: payments.id })
            .from(payments)
            .where(and(eq(payments.userId, users.id), eq(payments.status, "paid"))),
        ),
      ),
    );
  const ids = (await candidates).map((row) => row.id);
  if (ids.length === 0) return 0;
  const unpaidTopUps = tx.select({ id: payments.id }).from(payments).where(inArray(payments.userId, ids));
  await tx.update(webhookEvents).set({ paymentId: null }).where(inArray(webhookEvents.paymentId, unpaidTopUps));
  await tx.delete(payments).where(inArray(payments.userId, ids));
  const removed = await tx.delete(users).where(inArray(users.id, ids)).returning({ id: users.id });
  return removed.length;
}

/** Applies every rule once, in one transaction; `mailFiles` are removed after it commits. */
async function applyRules(tx: Executor, cutoff: Date, now: Date): Promise<Omit<RetentionResult, "mailFiles">> {
  const unpaidOrders = await removeUnpaidOrders(tx, cutoff);
  const guestAccounts = await removeNeverPaidGuestAccounts(tx, cutoff);
  const guestTickets = (
    await tx
      .delete(tickets)
      .where(and(isNotNull(tickets.guestEmail), lt(tickets.updatedAt, cutoff)))
      .returning({ id: tickets.id })
  ).length;
  const orderAddresses = (
    await tx
      .update(orders)
      .set({ clientIp: null })
      .where(and(isNotNull(orders.clientIp), lt(orders.createdAt, cutoff)))
      .returning({ id: orders.id })
  ).length;
  // Counters of windows that ended long ago count nothing; their keys name addresses and accounts.
  const rateLimitCounters = (
    await tx.delete(rateLimits).where(lt(rateLimits.windowStart, cutoff)).returning({ key: rateLimits.key })
  ).length;
  const [{ cut }] = await rowsOf<{ cut: number }>(
    tx.execute(sql`select audit_log_cut_addresses(${cutoff.toISOString()}::timestamptz) as cut`),
  );
  // Sessions that ended (revoked, expired, or of a deleted account) hold nothing but a browser's name and times.
  const endedSessions = (
    await tx
      .delete(sessions)
      .where(
        or(
          lt(sessions.revokedAt, cutoff),
          lt(sessions.expiresAt, cutoff),
          inArray(sessions.userId, tx.select({ id: users.id }).from(users).where(isNotNull(users.deletedAt))),
        ),
      )
      .returning({ id: sessions.id })
  ).length;
  const devices = (
    await tx
      .delete(knownDevices)
      .where(lt(knownDevices.lastUsedAt, new Date(now.getTime() - KNOWN_DEVICE_LIFETIME_MS)))
      .returning({ id: knownDevices.id })
  ).length;
  const resetCodes = await deleteSpentCodes(tx, passwordResets, now);
  const challenges = await deleteSpentCodes(tx, signInChallenges, now);
  const idempotencyKeys = await purgeExpiredIdempotencyKeys(tx, now);
  const mails = (
    await tx
      .delete(mailOutbox)
      .where(and(inArray(mailOutbox.status, ["sent", "failed"]), lt(mailOutbox.createdAt, cutoff)))
      .returning({ id: mailOutbox.id })
  ).length;
  return {
    unpaidOrders,
    guestAccounts,
    guestTickets,
    orderAddresses,
    rateLimitCounters,
    auditAddresses: Number(cut),
    sessions: endedSessions,
    devices,
    resetCodes,
    challenges,
    idempotencyKeys,
    mails,
  };
}

/** One-time codes (password resets, sign-in challenges) that were used or have expired prove nothing any more. */
async function deleteSpentCodes(tx: Executor, table: typeof passwordResets | typeof signInChallenges, now: Date) {
  const deleted = await tx
    .delete(table)
    .where(or(lte(table.expiresAt, now), isNotNull(table.usedAt)))
    .returning({ id: table.id });
  return deleted.length;
}

/** The .eml copies of mail (no SMTP_URL) written before the cutoff: the mail they hold was sent. */
async function removeOldMailFiles(config: Config, cutoff: Date): Promise<number> {
  const folder = outboxFolder(config);
  const names = await readdir(folder).catch(() => [] as string[]);
  let removed = 0;
  for (const name of names.filter((candidate) => candidate.endsWith(".eml"))) {
    const file = path.join(folder, name);
    const info = await stat(file).catch(() => undefined);
    if (info && info.mtime < cutoff) {
      await rm(file, { force: true });
      removed++;
    }
  }
  return removed;
}

/**
 * Applies the rules when no instance did within the last `intervalMs`; answers undefined when another instance
 * holds the turn or ran them recently. The lock and the last run's time are in PostgreSQL, so instances agree.
 */
export async function applyRetention(
  deps: { db: Database; config: Config },
  options: { now?: Date; intervalMs?: number } = {},
): Promise<RetentionResult | undefined> {
  const now = options.now ?? new Date();
  const cutoff = new Date(now.getTime() - deps.config.retentionDays * DAY_MS);
  const intervalMs = options.intervalMs ?? RETENTION_INTERVAL_MS;
  const result = await deps.db.transaction(async (tx) => {
    const [{ locked }] = await rowsOf<{ locked: boolean }>(
      tx.execute(sql`select pg_try_advisory_xact_lock(${RETENTION_LOCK}) as locked`),
    );
    if (!locked) return undefined;
    const [last] = await tx.select().from(storeSettings).where(eq(storeSettings.key, RETENTION_LAST_RUN_KEY));
    const lastRun = typeof last?.value === "string" ? Date.parse(last.value) : Number.NaN;
    if (now.getTime() - lastRun < intervalMs) return undefined;
    const applied = await applyRules(tx, cutoff, now);
    await tx
      .insert(storeSettings)
      .values({ key: RETENTION_LAST_RUN_KEY, value: now.toISOString(), updatedAt: now })
      .onConflictDoUpdate({ target: storeSettings.key, set: { value: now.toISOString(), updatedAt: now } });
    return applied;
  });
  if (!result) return undefined;
  return { ...result, mailFiles: await removeOldMailFiles(deps.config, cutoff) };
}
