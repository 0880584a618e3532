import { and, eq, gte, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { balanceLedger, users } from "../db/schema";
import { conflict } from "../errors";
import { centsToUsd } from "../../contract/money";
import type { BalanceSheet } from "../../contract/answers/balance";
import { STAFF_AUTHOR } from "../../contract/ticket";

export const INSUFFICIENT_BALANCE = "Insufficient balance";

type LedgerLink = {
  orderId?: string;
  paymentId?: string;
  note?: string;
  /** The staff member who made the change by hand (the customer sees 'Admin'). */
  staffUserId?: string | null;
  now?: Date;
};

import { newestFirst, readPage } from "./paging";
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
  const [row] = await tx
    .update(users)
    .set({ balanceCents: sql`${users.balanceCents} - ${amountCents}` })
    .where(and(eq(users.id, userId), gte(users.balanceCents, amountCents)))
    .returning({ balanceCents: users.balanceCents });
  if (!row) throw conflict(INSUFFICIENT_BALANCE);
  await writeLedgerRow(tx, userId, "out", amountCents, row.balanceCents, link);
  return { balanceAfterCents: row.balanceCents };
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

/** The spec's balance sheet: the current balance and one page of ledger entries, newest first. */
export async function readBalanceSheet(db: Executor, userId: string, page = 1): Promise<BalanceSheet> {
  const [user] = await db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId));
  const { pager, rows: entries } = await readPage(
    db,
    db
      .select({
        id: balanceLedger.id,
        createdAt: balanceLedger.createdAt,
        type: balanceLedger.type,
        amountCents: balanceLedger.amountCents,
        note: balanceLedger.note,
        orderId: balanceLedger.orderId,
        staffUserId: balanceLedger.staffUserId,
      })
      .from(balanceLedger)
      .$dynamic(),
    {
      counted: balanceLedger,
      where: eq(balanceLedger.userId, userId),
      orderBy: newestFirst(balanceLedger),
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
