import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { deliveredCredentials, stockCredentials } from "../db/schema";
import { rearmStockNotifications } from "./stock-levels";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Claims up to `quantity` available credentials of an option for one order line. SKIP LOCKED lets
 * concurrent checkouts each take different rows without waiting on one another, and without ever
 * taking the same row twice. Answers how many were claimed (possibly fewer than asked).
 */
export async function claimCredentials(
  tx: Executor,
  claim: { optionId: string; orderProductId: string; quantity: number; reservedUntil: Date | null },
): Promise<string[]> {
  if (claim.quantity <= 0) return [];
  // Two statements, not `UPDATE ... WHERE id IN (SELECT ... LIMIT n FOR UPDATE SKIP LOCKED)`: planned as a
  // nested loop, that subquery runs again for each row, skips the rows the UPDATE already changed, and
  // hands out more than n (seen on PGlite and possible on PostgreSQL).
  const claimable = await tx
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .where(and(eq(stockCredentials.optionId, claim.optionId), eq(stockCredentials.status, "available")))
    .orderBy(asc(stockCredentials.createdAt), asc(stockCredentials.id))
    .limit(claim.quantity)
    .for("update", { skipLocked: true });
  if (claimable.length === 0) return [];
  const claimed = await tx
    .update(stockCredentials)
    .set({ status: "reserved", orderProductId: claim.orderProductId, reservedUntil: claim.reservedUntil })
    .where(
      and(
        inArray(
          stockCredentials.id,
          claimable.map((row) => row.id),
        ),
        eq(stockCredentials.status, "available"),
      ),
    )
    .returning({ id: stockCredentials.id });
  return claimed.map((row) => row.id);
}

/** Puts the reserved credentials of these order lines back on sale (and re-arms their low-stock notices). */
export async function releaseReservations(tx: Executor, orderProductIds: string[]): Promise<number> {
  if (orderProductIds.length === 0) return 0;
  const released = await tx
    .update(stockCredentials)
    .set({ status: "available", orderProductId: null, reservedUntil: null })
    .where(and(inArray(stockCredentials.orderProductId, orderProductIds), eq(stockCredentials.status, "reserved")))
    .returning({ id: stockCredentials.id, optionId: stockCredentials.optionId });
  await rearmStockNotifications(
    tx,
    released.map((row) => row.optionId),
  );
  return released.length;
}

export type DeliverableLine = { id: string; optionId: string; quantity: number; durationDays: number };

/**
 * Delivers one paid auto-fulfilment line: its reserved credentials first, then (a late payment whose
 * reservation lapsed) whatever stock is still available. Safe to call twice: what is already
 * delivered counts, and the unique credential_id of delivered_credentials refuses a second delivery.
 * Answers how many credentials the line now has.
 */
export async function deliverLine(tx: Executor, line: DeliverableLine, now: Date): Promise<number> {
  const [done] = await tx
    .select({
      rows: count(),
      current: sql<number>`count(*) filter (where ${deliveredCredentials.replacedAt} is null)`.mapWith(Number),
    })
    .from(deliveredCredentials)
    .where(eq(deliveredCredentials.orderProductId, line.id));
  const alreadyDelivered = done?.current ?? 0;
  // Replaced credentials keep their rows (and positions), so new positions start after all of them.
  const firstPosition = Number(done?.rows ?? 0);
  let missing = line.quantity - alreadyDelivered;
  if (missing <= 0) return alreadyDelivered;

  const held = await tx
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .where(and(eq(stockCredentials.orderProductId, line.id), eq(stockCredentials.status, "reserved")))
    .orderBy(asc(stockCredentials.createdAt), asc(stockCredentials.id))
    .limit(missing)
    .for("update");
  const credentialIds = held.map((row) => row.id);
  missing -= credentialIds.length;
  if (missing > 0) {
    credentialIds.push(
      ...(await claimCredentials(tx, {
        optionId: line.optionId,
        orderProductId: line.id,
        quantity: missing,
        reservedUntil: null,
      })),
    );
  }
  if (credentialIds.length === 0) return alreadyDelivered;

  const expiresAt = new Date(now.getTime() + line.durationDays * DAY_MS);
  await tx.insert(deliveredCredentials).values(
    credentialIds.map((credentialId, index) => ({
      orderProductId: line.id,
      credentialId,
      position: firstPosition + index,
      deliveredAt: now,
      expiresAt,
    })),
  );
  await tx
    .update(stockCredentials)
    .set({ status: "delivered", deliveredAt: now, reservedUntil: null })
    .where(inArray(stockCredentials.id, credentialIds));
  return alreadyDelivered + credentialIds.length;
}
