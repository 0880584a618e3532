import { and, asc, count, eq, inArray, max, sql } from "drizzle-orm";
import { type Executor, prepared, rowsOf } from "../../db/client";
import { credentialVault } from "../../credential-vault";
import { newId } from "../../db/ids";
import { deliveredCredentials, stockCredentials } from "../../db/schema";
import { rearmStockNotifications } from "./levels";
import { accountOfRow, amongAccounts, credentialColumns, revealCredential, sealedColumns } from "./secrets";

const DAY_MS = 24 * 60 * 60 * 1000;

/**
 * Claims up to `quantity` available credentials of an option for one order line. SKIP LOCKED lets
 * concurrent checkouts each take different rows without waiting on one another, and without ever
 * taking the same row twice. Answers the ids claimed (possibly fewer than asked).
 *
 * Seats (ADR 025): a row is one seat of an account. Asking for more than one, the line gets seats of
 * different accounts first, one seat per account in turn, then second seats; the accounts of
 * `avoidAccountsOf` (credential ids: what the line already holds) come last. `excludeAccountsOf` are
 * never taken: a replacement is not another seat of the account it replaces.
 */
export async function claimCredentials(
  tx: Executor,
  claim: {
    optionId: string;
    orderProductId: string;
    quantity: number;
    reservedUntil: Date | null;
    avoidAccountsOf?: string[];
    excludeAccountsOf?: string[];
  },
): Promise<string[]> {
  const claimable = await lockClaimable(tx, claim);
  if (claimable.length === 0) return [];
  const claimed = await tx
    .update(stockCredentials)
    .set({ status: "reserved", orderProductId: claim.orderProductId, reservedUntil: claim.reservedUntil })
    .where(and(inArray(stockCredentials.id, claimable), eq(stockCredentials.status, "available")))
    .returning({ id: stockCredentials.id });
  return claimed.map((row) => row.id);
}

type Claim = {
  optionId: string;
  quantity: number;
  avoidAccountsOf?: string[];
  excludeAccountsOf?: string[];
};

/**
 * The rows a claim takes, locked (SKIP LOCKED), in the order they are handed out. Locked first, then updated by
 * id: PostgreSQL may run an `IN (SELECT … LIMIT n FOR UPDATE SKIP LOCKED)` subquery more than once within one
 * UPDATE, and so update more than n rows.
 */
async function lockClaimable(tx: Executor, claim: Claim): Promise<string[]> {
  if (claim.quantity <= 0) return [];
  const avoid = claim.avoidAccountsOf ?? [];
  const exclude = claim.excludeAccountsOf ?? [];
  return claim.quantity === 1 && avoid.length === 0 && exclude.length === 0
    ? anySeat(tx, claim.optionId)
    : spreadSeats(tx, claim.optionId, claim.quantity, avoid, exclude);
}

/**
 * For a new line of an order paid as it is placed (balance, $0, a redeemed key): claims its credentials as
 * claimCredentials does and delivers them in the same statement, so they go from available to delivered with
 * no reservation between (deliverLine's rows, positions from 0, in the order claimed). Answers how many it
 * delivered (possibly fewer than asked).
 */
export async function claimAndDeliver(
  tx: Executor,
  line: { id: string; optionId: string; quantity: number; durationDays: number },
  now: Date,
): Promise<number> {
  const claimable = await lockClaimable(tx, { optionId: line.optionId, quantity: line.quantity });
  if (claimable.length === 0) return 0;
  const picks = sql.join(
    claimable.map((credentialId, index) => sql`(${credentialId}::text, ${newId()}::text, ${index}::int)`),
    sql`, `,
  );
  const expiresAt = new Date(now.getTime() + line.durationDays * DAY_MS);
  const delivered = await rowsOf<{ credential_id: string }>(
    tx.execute(sql`
      with taken as (
        update ${stockCredentials}
        set status = 'delivered', order_product_id = ${line.id}, reserved_until = null,
            delivered_at = ${now.toISOString()}
        where id in (${sql.join(claimable, sql`, `)}) and status = 'available'
        returning id
      )
      insert into ${deliveredCredentials} (id, order_product_id, credential_id, position, delivered_at, expires_at)
      select pick.delivered_id, ${line.id}, pick.credential_id, (row_number() over (order by pick.n))::int - 1,
             ${now.toISOString()}::timestamptz, ${expiresAt.toISOString()}::timestamptz
      from (values ${picks}) as pick (credential_id, delivered_id, n)
      join taken on taken.id = pick.credential_id
      returning credential_id`),
  );
  return delivered.length;
}

/** The oldest available row, locked: one seat needs no choosing between accounts. */
async function anySeat(tx: Executor, optionId: string): Promise<string[]> {
  const rows = await prepared(
    tx
      .select({ id: stockCredentials.id })
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, optionId), eq(stockCredentials.status, "available")))
      .orderBy(asc(stockCredentials.createdAt), asc(stockCredentials.id))
      .limit(1)
      .for("update", { skipLocked: true }),
    "lock_any_seat",
  );
  return rows.map((row) => row.id);
}

/**
 * Available rows ranked so that every account gives its first free seat before any gives a second,
 * locked. The ranking runs in a CTE because PostgreSQL locks no rows of a query with a window function.
 */
async function spreadSeats(
  tx: Executor,
  optionId: string,
  quantity: number,
  avoid: string[],
  exclude: string[],
): Promise<string[]> {
  // Which account a row sells is its keyed hash (ADR 056): compared as stored, nothing is decrypted here.
  const accountsOf = async (ids: string[]) =>
    ids.length === 0
      ? []
      : (
          await tx
            .selectDistinct({ account: sql<string>`${accountOfRow}` })
            .from(stockCredentials)
            .where(inArray(stockCredentials.id, ids))
        ).map((row) => row.account);
  const among = (accounts: string[]) =>
    accounts.length === 0 ? sql`false` : sql`${accountOfRow} in (${sql.join(accounts, sql`, `)})`;
  const avoided = await accountsOf(avoid);
  const excluded = await accountsOf(exclude);
  const ranked = tx.$with("ranked_seats").as(
    tx
      .select({
        rowId: sql<string>`${stockCredentials.id}`.as("row_id"),
        avoided: sql<boolean>`${among(avoided)}`.as("avoided"),
        turn: sql<number>`row_number() over (
          partition by ${accountOfRow}
          order by ${stockCredentials.seat}, ${stockCredentials.id}
        )`.as("turn"),
        addedAt: sql<Date>`${stockCredentials.createdAt}`.as("added_at"),
      })
      .from(stockCredentials)
      .where(
        and(
          eq(stockCredentials.optionId, optionId),
          eq(stockCredentials.status, "available"),
          sql`not ${among(excluded)}`,
        ),
      ),
  );
  const rows = await tx
    .with(ranked)
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .innerJoin(ranked, eq(ranked.rowId, stockCredentials.id))
    .where(eq(stockCredentials.status, "available"))
    .orderBy(asc(ranked.avoided), asc(ranked.turn), asc(ranked.addedAt), asc(stockCredentials.id))
    .limit(quantity)
    .for("update", { of: stockCredentials, skipLocked: true });
  return rows.map((row) => row.id);
}

/** Advisory-lock class of an account's seats: freeing a seat numbers it after the account's others. */
const SEAT_NUMBERING_LOCK = 7425;

/**
 * A replaced seat of a shared account goes back on sale (ADR 025): the replaced row stays as history,
 * and a new available row of the same account takes the next seat number. A private account (one row)
 * is never sold again, nor is an account staff removed from sale.
 */
export async function resellReplacedSeat(tx: Executor, credentialId: string, now: Date): Promise<void> {
  const [replaced] = await tx
    .select({ optionId: stockCredentials.optionId, batchLabel: stockCredentials.batchLabel, ...credentialColumns })
    .from(stockCredentials)
    .where(eq(stockCredentials.id, credentialId));
  if (!replaced) return;
  const credential = revealCredential(replaced);
  const sameAccount = and(eq(stockCredentials.optionId, replaced.optionId), amongAccounts([credential]));
  // Two seats of one account replaced at once must not both take the same next number.
  await tx.execute(
    sql`select pg_advisory_xact_lock(${SEAT_NUMBERING_LOCK}, hashtext(${`${replaced.optionId}:${credentialVault().usernameLookup(credential.username)}`}))`,
  );
  const [account] = await tx
    .select({
      seats: count(),
      lastSeat: max(stockCredentials.seat),
      removed: sql<number>`count(*) filter (where ${stockCredentials.status} = 'void')`.mapWith(Number),
    })
    .from(stockCredentials)
    .where(sameAccount);
  if (account.seats < 2 || account.removed > 0) return;
  await tx.insert(stockCredentials).values({
    optionId: replaced.optionId,
    ...sealedColumns(credential),
    batchLabel: replaced.batchLabel,
    seat: (account.lastSeat ?? 0) + 1,
    createdAt: now,
  });
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
    const delivered = await tx
      .select({ id: deliveredCredentials.credentialId })
      .from(deliveredCredentials)
      .where(eq(deliveredCredentials.orderProductId, line.id));
    credentialIds.push(
      ...(await claimCredentials(tx, {
        optionId: line.optionId,
        orderProductId: line.id,
        quantity: missing,
        reservedUntil: null,
        avoidAccountsOf: [...credentialIds, ...delivered.map((row) => row.id)],
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
