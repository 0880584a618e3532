import { createHash } from "node:crypto";
import { and, eq, lt, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { AppError } from "../../errors";

/** A fixed-window limit: at most `limit` hits per `windowMs` for one key. */
export type RateRule = { name: string; limit: number; windowMs: number };

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

/** The account limits. Per address and per account, so neither one address nor many can guess freely. */
export const RATE_RULES = {
  loginPerAddress: { name: "login:ip", limit: 50, windowMs: 15 * MINUTE },
  loginPerAddressAndAccount: { name: "login:ip-account", limit: 10, windowMs: 15 * MINUTE },
  /**
   * Failed sign-ins on one account from anywhere: past this, a browser the account does not know
   * must pass the human check with the password (ADR 015). It asks, never refuses, so the owner is
   * not locked out; and it is not scaled by RATE_LIMIT_SCALE, which is for shared addresses.
   */
  loginFailuresBeforeHumanCheck: { name: "login:account-failures", limit: 5, windowMs: HOUR },
  /** Failures through one known browser: a stolen device cookie is no free pass past the human check. */
  loginFailuresPerDevice: { name: "login:device-failures", limit: 10, windowMs: 15 * MINUTE },
  registerPerAddress: { name: "register:ip", limit: 20, windowMs: HOUR },
  registerPerEmail: { name: "register:email", limit: 5, windowMs: HOUR },
  forgetPerAddress: { name: "forget:ip", limit: 10, windowMs: 15 * MINUTE },
  forgetPerEmail: { name: "forget:email", limit: 3, windowMs: 15 * MINUTE },
  resetPerAddress: { name: "reset:ip", limit: 20, windowMs: 15 * MINUTE },
  resetPerEmail: { name: "reset:email", limit: 10, windowMs: 15 * MINUTE },
  /** Current-password checks in settings: a stolen session must not become a password oracle. */
  reauthPerAccount: { name: "reauth:account", limit: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateRule>;

/** Rows older than this are dead: longer than every window and than a human-check challenge lives. */
const RETENTION_MS = 24 * HOUR;

/** A 429 that says when to come back: the error mapping turns retryAfterSeconds into Retry-After. */
export class RateLimitedError extends AppError {
  constructor(
    readonly retryAfterSeconds: number,
    message?: string,
  ) {
    const minutes = Math.max(1, Math.ceil(retryAfterSeconds / 60));
    super(429, message ?? `Too many attempts. Please wait ${minutes} minute${minutes === 1 ? "" : "s"} and try again.`);
  }
}

/** Emails and usernames go into keys as digests: the table then holds no personal data. */
export function subjectKey(value: string): string {
  return createHash("sha256").update(value.trim().toLowerCase()).digest("base64url").slice(0, 22);
}

function windowStart(rule: RateRule, now: Date): Date {
  return new Date(Math.floor(now.getTime() / rule.windowMs) * rule.windowMs);
}

/** Counts one hit in one statement, so concurrent instances never lose a count; answers the window's hits. */
export async function countHit(db: Executor, rule: RateRule, subject: string, now = new Date()): Promise<number> {
  const [row] = await db
    .insert(rateLimits)
    .values({ key: `${rule.name}:${subject}`, windowStart: windowStart(rule, now), hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { hits: sql`${rateLimits.hits} + 1` },
    })
    .returning({ hits: rateLimits.hits });
  if (Math.random() < 0.02) await cleanUpRateLimits(db, now);
  return row.hits;
}

/** Counts one hit and throws a 429 once the window holds more than the limit (times RATE_LIMIT_SCALE). */
export async function hitRateLimit(
  db: Executor,
  rule: RateRule,
  subject: string,
  options: { now?: Date; scale?: number } = {},
): Promise<void> {
  const now = options.now ?? new Date();
  const hits = await countHit(db, rule, subject, now);
  throwWhenOver(rule, hits, windowStart(rule, now), now, options.scale);
}

/**
 * Gives back one hit counted in the window of `now`: a hit counted before the outcome was known (so that
 * requests at once cannot all pass under the limit) that turned out not to be a failure.
 */
export async function uncountHit(db: Executor, rule: RateRule, subject: string, now: Date): Promise<void> {
  await db
    .update(rateLimits)
    .set({ hits: sql`greatest(${rateLimits.hits} - 1, 0)` })
    .where(and(eq(rateLimits.key, `${rule.name}:${subject}`), eq(rateLimits.windowStart, windowStart(rule, now))));
}

/** The hits the current window holds, without counting one (for thresholds on failures only). */
export async function hitsSoFar(db: Executor, rule: RateRule, subject: string, now = new Date()): Promise<number> {
  const [row] = await db
    .select({ hits: rateLimits.hits })
    .from(rateLimits)
    .where(and(eq(rateLimits.key, `${rule.name}:${subject}`), eq(rateLimits.windowStart, windowStart(rule, now))));
  return row?.hits ?? 0;
}

function throwWhenOver(rule: RateRule, hits: number, start: Date, now: Date, scale = 1): void {
  if (hits <= Math.ceil(rule.limit * scale)) return;
  const retryAfterMs = start.getTime() + rule.windowMs - now.getTime();
  throw new RateLimitedError(Math.ceil(retryAfterMs / 1000));
}

/** Removes windows nobody reads any more; called now and then by hits, and safe to call anytime. */
export async function cleanUpRateLimits(db: Executor, now = new Date()): Promise<void> {
  await db.delete(rateLimits).where(lt(rateLimits.windowStart, new Date(now.getTime() - RETENTION_MS)));
}
