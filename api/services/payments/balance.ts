import { eq, sql } from "drizzle-orm";
import { type Executor, rowsOf } from "../../db/client";
import { newId } from "../../db/ids";
import { balanceLedger, users } from "../../db/schema";
import { conflict } from "../../errors";
import { centsToUsd } from "../../../contract/money";
import type { BalanceSheet } from "../../../contract/answers/balance";
import { STAFF_AUTHOR } from "../../../contract/ticket";

export const INSUFFICIENT_BALANCE = "Insufficient balance";

type LedgerLink = {
  orderId?: string;
  paymentId?: string;
  note?: string;
  /** The staff member who made the change by hand (the customer sees 'Admin'). */
  staffUserId?: string | null;
  now?: Date;
};

import { newestFirst, readPage } from "../shared/paging";
/**
 * Spends balance in one conditional statement: two concurrent debits can never both pass a check
 * that only one of them fits, and the column's check constraint backs this up. Writes the ledger row.
 */
export async function debitBalance(
  tx: Executor,
  userId: string,
  amountCents: number,
  link: LedgerLink = {},
): Promise<{ balanceAfterCents: number }> {
  // The debit and its ledger row are one statement: the row is written only when the debit passed.
  const [row] = await rowsOf<{ balance_after_cents: number }>(
    tx.execute(sql`
      with debited as (
        update ${users} set balance_cents = balance_cents - ${amountCents}
        where id = ${userId} and balance_cents >= ${amountCents}
        returning balance_cents
      )
      insert into ${balanceLedger}
        (id, user_id, type, amount_cents, balance_after_cents, order_id, payment_id, note, staff_user_id, created_at)
      select ${newId()}::text, ${userId}::text, 'out', ${amountCents}::int, balance_cents, ${link.orderId ?? null}::text,
             ${link.paymentId ?? null}::text, ${link.note ?? ""}::text, ${link.staffUserId ?? null}::text,
             coalesce(${link.now?.toISOString() ?? null}::timestamptz, now())
      from debited
      returning balance_after_cents`),
  );
  if (!row) throw conflict(INSUFFICIENT_BALANCE);
  return { balanceAfterCents: Number(row.balance_after_cents) };
}

/** The ledger row of one balance change, beside the change in the same transaction. */
async function writeLedgerRow(
  tx: Executor,
  userId: string,
  type: "out" | "in" | "refund" | "adjustment",
  amountCents: number,
  balanceAfterCents: number,
  link: LedgerLink,
): Promise<void> {
  await tx.insert(balanceLedger).values({
    userId,
    type,
    amountCents,
    balanceAfterCents,
    orderId: link.orderId,
    paymentId: link.paymentId,
    note: link.note ?? "",
    staffUserId: link.staffUserId ?? null,
    createdAt: link.now,
  });
}

/** Adds to a balance ('in' for a top-up, 'refund' for money returned on an order) with its ledger row. */
export async function creditBalance(
  tx: Executor,
  userId: string,
  amountCents: number,
  type: "in" | "refund" | "adjustment",
  link: LedgerLink = {},
): Promise<{ balanceAfterCents: number }> {
  const [row] = await tx
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} + ${amountCents}` })
    .where(eq(users.id, userId))
    .returning({ balanceCents: users.balanceCents });
  await writeLedgerRow(tx, userId, type, amountCents, row.balanceCents, link);
  return { balanceAfterCents: row.balanceCents };
}

/** Ledger entries per page of the balance sheet. */
export const LEDGER_PAGE_SIZE = 20;

/** The columns of a ledger entry both the customer's balance sheet and the staff's view of it show. */
export const ledgerEntryColumns = {
  id: balanceLedger.id,
  createdAt: balanceLedger.createdAt,
  type: balanceLedger.type,
  amountCents: balanceLedger.amountCents,
  note: balanceLedger.note,
  orderId: balanceLedger.orderId,
};

/** readPage's rows for a customer's ledger: their entries, newest first. */
export const ledgerOfCustomer = (userId: string) => ({
  counted: balanceLedger,
  where: eq(balanceLedger.userId, userId),
  orderBy: newestFirst(balanceLedger),
});

/** The spec's balance sheet: the current balance and one page of ledger entries, newest first. */
export async function readBalanceSheet(db: Executor, userId: string, page = 1): Promise<BalanceSheet> {
  const [user] = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId));
  const { pager, rows: entries } = await readPage(
    db,
    db
      .select({
        ...ledgerEntryColumns,
        staffUserId: balanceLedger.staffUserId,
      })
      .from(balanceLedger)
      .$dynamic(),
    {
      ...ledgerOfCustomer(userId),
      page,
      pageSize: LEDGER_PAGE_SIZE,
    },
  );
  return {
    balance: centsToUsd(user?.balanceCents ?? 0),
    records: entries.map((entry) => ({
      _id: entry.id,
      createdAt: entry.createdAt.toISOString(),
      type: entry.type,
      amount: centsToUsd(entry.amountCents),
      note: entry.note,
      orderId: entry.orderId,
      // Staff appear to customers only as 'Admin' (ADR 023); who it was stays in the back office.
      by: entry.staffUserId ? STAFF_AUTHOR : null,
    })),
    pager,
  };
}
