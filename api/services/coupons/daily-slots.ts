import { randomBytes, randomInt } from "node:crypto";
import { and, desc, eq, gt, lt, sql } from "drizzle-orm";
import {
  MAX_SAVED_SPINS,
  NO_SPINS_MESSAGE,
  REEL_COUNT,
  REEL_STOPS,
  SLOT_COUPON_DAYS,
  SLOT_DISCOUNTS,
  type SlotOutcome,
  type SlotSymbolId,
  outcomeOf,
  symbolAtStop,
} from "../../../contract/slots";
import type { Executor } from "../../db/client";
import { coupons, spinAccounts, spins, users } from "../../db/schema";
import { conflict, notFound } from "../../errors";
import type { SlotCoupon, Spin, SpinBalance, SpinResult } from "../../../contract/answers/spinwheel";

/*
 * The daily slots game (ADR 022). The server decides everything: it takes a spin, draws the three stops
 * with crypto randomness, scores them and issues a single-use coupon bound to the customer, in one
 * transaction. Spins accrue per UTC day from spin_accounts.counted_from; no job grants them.
 */

const DAY_MS = 86_400_000;
export const SPIN_MESSAGES = { notFound: "Spin not found" } as const;

/** A uniform whole number in [0, max): crypto.randomInt in production, a seeded source in tests. */
export type RandomInt = (max: number) => number;

/** The UTC calendar day of `now`, as PostgreSQL's date text (the game's day boundary is midnight UTC). */
export function utcDay(now: Date): string {
  return now.toISOString().slice(0, 10);
}

/** Spins held on `today` by an account counting from `countedFrom` (both YYYY-MM-DD). */
export function spinsOn(today: string, countedFrom: string): number {
  const days = Math.round((Date.parse(today) - Date.parse(countedFrom)) / DAY_MS);
  return Math.max(0, Math.min(MAX_SAVED_SPINS, days));
}

/** Each reel's stop from the one weighted table: a uniform draw among its 128 stops. */
export function drawStops(random: RandomInt = randomInt): number[] {
  return Array.from({ length: REEL_COUNT }, () => random(REEL_STOPS));
}

export function scoreStops(stops: readonly number[]): {
  symbols: SlotSymbolId[];
  outcome: SlotOutcome;
  discount: number;
} {
  const symbols = stops.map((stop) => symbolAtStop(stop).id);
  const outcome = outcomeOf(symbols);
  return { symbols, outcome, discount: SLOT_DISCOUNTS[outcome] };
}

/** Without 0/O and 1/I, so a code read aloud or typed from a screenshot comes out right. */
const CODE_ALPHABET = "23456789ABCDEFGHJKLMNPQRSTUVWXYZ";
/** SLOT- and 10 characters of 32: 50 random bits. Binding to the customer, not secrecy, protects it. */
function newCouponCode(): string {
  const bytes = randomBytes(10);
  return `SLOT-${Array.from(bytes, (byte) => CODE_ALPHABET[byte % 32]).join("")}`;
}

/** GET /v1/spinwheel/spins: what the customer holds now, and when the next one accrues (null at the cap). */
export async function readSpinBalance(db: Executor, userId: string, now = new Date()): Promise<SpinBalance> {
  // No row yet: counted from the day before the account was made, as spin() will start it.
  const [row] = await db
    .select({
      countedFrom: sql<string>`coalesce(${spinAccounts.countedFrom}, (${users.createdAt} at time zone 'UTC')::date - 1)::text`,
    })
    .from(users)
    .leftJoin(spinAccounts, eq(spinAccounts.userId, users.id))
    .where(eq(users.id, userId));
  if (!row) throw notFound("Account not found");
  const spinsAvailable = spinsOn(utcDay(now), row.countedFrom);
  const nextMidnight = new Date(Date.parse(utcDay(now)) + DAY_MS);
  return {
    spinsAvailable,
    maxSpins: MAX_SAVED_SPINS,
    nextSpinAt: spinsAvailable < MAX_SAVED_SPINS ? nextMidnight.toISOString() : null,
  };
}

/**
 * POST /v1/spinwheel/spin. Takes one spin with a single conditional UPDATE (a concurrent spin waits for
 * the row and then finds nothing left), draws, and issues the coupon in the same transaction.
 */
export async function spin(
  db: Executor,
  userId: string,
  options: { now?: Date; random?: RandomInt } = {},
): Promise<SpinResult> {
  const now = options.now ?? new Date();
  const today = utcDay(now);
  return db.transaction(async (tx) => {
    // The first spin starts the account's row where readSpinBalance counted from.
    await tx.execute(sql`
      insert into ${spinAccounts} (user_id, counted_from)
      select ${users.id}, (${users.createdAt} at time zone 'UTC')::date - 1 from ${users} where ${users.id} = ${userId}
      on conflict do nothing`);
    const [taken] = await tx
      .update(spinAccounts)
      .set({
        countedFrom: sql`greatest(${spinAccounts.countedFrom}, ${today}::date - ${MAX_SAVED_SPINS}::integer) + 1`,
      })
      .where(and(eq(spinAccounts.userId, userId), sql`${today}::date - ${spinAccounts.countedFrom} >= 1`))
      .returning({ countedFrom: spinAccounts.countedFrom });
    if (!taken) throw conflict(NO_SPINS_MESSAGE);

    const stops = drawStops(options.random);
    const { symbols, outcome, discount } = scoreStops(stops);
    const expiresAt = new Date(now.getTime() + SLOT_COUPON_DAYS * DAY_MS);
    let coupon: { id: string; code: string } | undefined;
    // 50 random bits practically never repeat; if they do, draw another code rather than fail the spin.
    while (!coupon) {
      [coupon] = await tx
        .insert(coupons)
        .values({
          code: newCouponCode(),
          kind: "percent",
          amount: discount,
          maxUses: 1,
          perCustomerLimit: 1,
          userId,
          source: "slots",
          expiresAt,
          createdAt: now,
        })
        .onConflictDoNothing()
        .returning({ id: coupons.id, code: coupons.code });
    }
    const [row] = await tx
      .insert(spins)
      .values({ userId, stops, discountPercent: discount, couponId: coupon.id, createdAt: now })
      .returning({ id: spins.id });
    return {
      spinId: row.id,
      stops,
      symbols,
      outcome,
      discount,
      couponCode: coupon.code,
      couponExpiresAt: expiresAt.toISOString(),
      couponUsed: false,
      createdAt: now.toISOString(),
      spinsRemaining: spinsOn(today, taken.countedFrom),
    };
  });
}

/** GET /v1/spinwheel/spin/{spinId}: one of the customer's spins; another's or an unknown id is the same 404. */
export async function readSpin(db: Executor, userId: string, spinId: string): Promise<Spin> {
  const [row] = await db
    .select({
      id: spins.id,
      stops: spins.stops,
      createdAt: spins.createdAt,
      code: coupons.code,
      expiresAt: coupons.expiresAt,
      usedCount: coupons.usedCount,
    })
    .from(spins)
    .innerJoin(coupons, eq(coupons.id, spins.couponId))
    .where(and(eq(spins.id, spinId), eq(spins.userId, userId)));
  if (!row) throw notFound(SPIN_MESSAGES.notFound);
  return {
    spinId: row.id,
    stops: row.stops,
    ...scoreStops(row.stops),
    couponCode: row.code,
    couponExpiresAt: (row.expiresAt ?? row.createdAt).toISOString(),
    couponUsed: row.usedCount > 0,
    createdAt: row.createdAt.toISOString(),
  };
}

/** More than a customer can hold: a coupon lives 7 days, in which at most 3 saved + 7 daily spins fit. */
const COUPON_LIST_LIMIT = 20;

/** GET /v1/spinwheel/coupons: the customer's won coupons that can still be used, the soonest to expire first. */
export async function listSlotCoupons(db: Executor, userId: string, now = new Date()): Promise<SlotCoupon[]> {
  const rows = await db
    .select({ code: coupons.code, amount: coupons.amount, expiresAt: coupons.expiresAt })
    .from(coupons)
    .where(
      and(
        eq(coupons.userId, userId),
        eq(coupons.source, "slots"),
        eq(coupons.active, true),
        gt(coupons.expiresAt, now),
        lt(coupons.usedCount, 1),
      ),
    )
    .orderBy(coupons.expiresAt, desc(coupons.createdAt))
    .limit(COUPON_LIST_LIMIT);
  return rows.map((row) => ({ code: row.code, discount: row.amount, expiresAt: row.expiresAt!.toISOString() }));
}
