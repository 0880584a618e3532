import { and, count, eq, gt, min, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { orders } from "../../db/schema";
import { RateLimitedError } from "../guards/rate-limit";

/*
 * The unpaid-order caps: how many pending orders one account and one address may hold while their stock is
 * reserved, so nobody can lock up the shop's stock with orders they never pay.
 */

/** Unpaid orders one account / one address may hold, so nobody can lock up the shop's stock. */
export const PENDING_ORDERS_PER_USER = 3;
export const PENDING_ORDERS_PER_ADDRESS = 5;
export const RESERVATION_ROOM_MESSAGES = {
  tooManyPendingUser: `You already have ${PENDING_ORDERS_PER_USER} unpaid orders. Pay one of them or wait up to 30 minutes until they expire.`,
  tooManyPendingAddress:
    "Too many unpaid orders from your network. Please pay an open order or try again in 30 minutes.",
} as const;

/** Any fixed number: names the advisory locks that serialise the unpaid-order count of one address. */
const ADDRESS_LOCK_SPACE = 740_0002;

/** Retry-After for the unpaid-order caps: room frees up when the oldest open reservation expires. */
function secondsUntil(expiry: Date | null, now: Date): number {
  return Math.max(1, Math.ceil(((expiry?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
}

export async function assertReservationRoom(
  tx: Executor,
  userId: string,
  clientIp: string | null,
  now: Date,
  rateLimitScale = 1,
) {
  const open = and(eq(orders.status, "pending"), gt(orders.expiresAt, now));
  // The caller holds the customer's row lock, so this count cannot change under it.
  const [mine] = await tx
    .select({ open: count(), firstExpiry: min(orders.expiresAt) })
    .from(orders)
    .where(and(open, eq(orders.userId, userId)));
  if (Number(mine.open) >= PENDING_ORDERS_PER_USER) {
    throw new RateLimitedError(secondsUntil(mine.firstExpiry, now), RESERVATION_ROOM_MESSAGES.tooManyPendingUser);
  }
  if (!clientIp || clientIp === "unknown") return;
  // Many accounts share one address: without this lock each would count the others' orders before
  // they commit. Held until the transaction ends, so the count and the insert are one step.
  await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK_SPACE}, hashtext(${clientIp}))`);
  const [fromAddress] = await tx
    .select({ open: count(), firstExpiry: min(orders.expiresAt) })
    .from(orders)
    .where(and(open, eq(orders.clientIp, clientIp)));
  if (Number(fromAddress.open) >= PENDING_ORDERS_PER_ADDRESS * rateLimitScale) {
    throw new RateLimitedError(
      secondsUntil(fromAddress.firstExpiry, now),
      RESERVATION_ROOM_MESSAGES.tooManyPendingAddress,
    );
  }
}
