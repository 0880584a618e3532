import { type SQL, asc, count, desc, eq, ilike, inArray, or } from "drizzle-orm";
import { alias } from "drizzle-orm/pg-core";
import {
  CUSTOMERS_PAGE_SIZE,
  CUSTOMER_LEDGER_PAGE_SIZE,
  CUSTOMER_ORDERS_PAGE_SIZE,
  CUSTOMER_TICKETS_PAGE_SIZE,
} from "../../../contract/admin-customers";
import type {
  Customer,
  CustomerOrderPage,
  CustomerPage,
  CustomerSummary,
  CustomerTicketPage,
  StaffLedgerPage,
} from "../../../contract/answers/admin-customers";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { centsToUsd } from "../../../contract/money";
import { ROLE_LABELS, type Role } from "../../../contract/staff";
import type { Database, Executor } from "../../db/client";
import { balanceLedger, orderProducts, orders, tickets, users } from "../../db/schema";
import { AppError, conflict, forbidden, notFound } from "../../errors";
import { type StaffActor, auditAccount } from "../staff/audit";
import {
  INSUFFICIENT_BALANCE,
  creditBalance,
  debitBalance,
  ledgerEntryColumns,
  ledgerOfCustomer,
} from "../payments/balance";
import { containsPattern, newestFirst, readPage, readRecordsPage } from "../shared/paging";
import { revokeAllSessions } from "../accounts/sessions";
import { idsOf } from "../shared/rows";

/*
 * The back office's customers (ADR 026): the list and one customer's orders, tickets and ledger, which
 * support reads too; balance adjustments and blocking, which managers and owners make, each in one
 * transaction with its audit entry.
 */

export const CUSTOMER_MESSAGES = {
  notFound: "No customer has this id",
  blockSelf: "You cannot block or unblock your own account.",
  blockOwner: "An owner cannot be blocked. Another owner can change their role under Staff first.",
  alreadyBlocked: "This account is already blocked",
  notBlocked: "This account is not blocked",
  ownBalance: "You cannot change your own balance. Another owner or manager can do it, and the audit log names them.",
} as const;

export const belowZeroMessage = (balanceCents: number) =>
  `The balance is $${centsToUsd(balanceCents).toFixed(2)}: a debit cannot take it below zero.`;

const usd = (cents: number) => `$${centsToUsd(cents).toFixed(2)}`;

const summaryColumns = {
  id: users.id,
  username: users.username,
  email: users.email,
  role: users.role,
  balanceCents: users.balanceCents,
  createdAt: users.createdAt,
  blockedAt: users.blockedAt,
};

/** How many orders (or tickets) each of these accounts has, in one query. */
async function countsByUser(
  db: Executor,
  table: typeof orders | typeof tickets,
  userIds: string[],
): Promise<Map<string, number>> {
  if (userIds.length === 0) return new Map();
  const rows = await db
    .select({ userId: table.userId, total: count() })
    .from(table)
    .where(inArray(table.userId, userIds))
    .groupBy(table.userId);
  return new Map(rows.map((row) => [row.userId ?? "", Number(row.total)]));
}

function summaryOf(
  row: {
    id: string;
    username: string;
    email: string;
    role: Role;
    balanceCents: number;
    createdAt: Date;
    blockedAt: Date | null;
  },
  orderCount: number,
): CustomerSummary {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    balance: centsToUsd(row.balanceCents),
    orders: orderCount,
    joined: row.createdAt.toISOString(),
    blocked: row.blockedAt !== null,
    blockedAt: row.blockedAt?.toISOString() ?? null,
  };
}

/**
 * Newest accounts first. `search` matches part of the email or username, or is the id of one of the
 * account's orders (what a customer quotes in a ticket).
 */
export async function listCustomers(db: Executor, query: { page: number; search: string }): Promise<CustomerPage> {
  let where: SQL | undefined;
  if (query.search) {
    const pattern = containsPattern(query.search);
    const matches: SQL[] = [ilike(users.email, pattern), ilike(users.username, pattern)];
    if (PUBLIC_ID_PATTERN.test(query.search)) {
      matches.push(
        inArray(users.id, db.select({ userId: orders.userId }).from(orders).where(eq(orders.id, query.search))),
      );
    }
    where = or(...matches);
  }
  const { pager, rows } = await readPage(db, db.select(summaryColumns).from(users).$dynamic(), {
    counted: users,
    where,
    orderBy: newestFirst(users),
    page: query.page,
    pageSize: CUSTOMERS_PAGE_SIZE,
  });
  const orderCounts = await countsByUser(db, orders, idsOf(rows));
  return { records: rows.map((row) => summaryOf(row, orderCounts.get(row.id) ?? 0)), pager };
}

export async function readCustomer(db: Executor, userId: string): Promise<Customer> {
  const [row] = await db
    .select({ ...summaryColumns, blockReason: users.blockReason, autoCreated: users.autoCreated })
    .from(users)
    .where(eq(users.id, userId));
  if (!row) throw notFound(CUSTOMER_MESSAGES.notFound);
  const orderCount = (await countsByUser(db, orders, [userId])).get(userId) ?? 0;
  const ticketCount = (await countsByUser(db, tickets, [userId])).get(userId) ?? 0;
  return {
    ...summaryOf(row, orderCount),
    tickets: ticketCount,
    blockReason: row.blockReason,
    autoCreated: row.autoCreated,
  };
}

async function assertCustomerExists(db: Executor, userId: string): Promise<void> {
  const [row] = await db.select({ id: users.id }).from(users).where(eq(users.id, userId));
  if (!row) throw notFound(CUSTOMER_MESSAGES.notFound);
}

export async function listOrdersOfCustomer(db: Executor, userId: string, page: number): Promise<CustomerOrderPage> {
  await assertCustomerExists(db, userId);
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: orders.id,
        status: orders.status,
        createdAt: orders.createdAt,
        priceCents: orders.priceCents,
        discountCents: orders.discountCents,
        paymentMethod: orders.paymentMethod,
      })
      .from(orders)
      .$dynamic(),
    {
      counted: orders,
      where: eq(orders.userId, userId),
      orderBy: newestFirst(orders),
      page,
      pageSize: CUSTOMER_ORDERS_PAGE_SIZE,
    },
  );
  const lines =
    rows.length === 0
      ? []
      : await db
          .select({ orderId: orderProducts.orderId, title: orderProducts.title, quantity: orderProducts.quantity })
          .from(orderProducts)
          .where(inArray(orderProducts.orderId, idsOf(rows)))
          .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  const itemsOf = (orderId: string) =>
    lines
      .filter((line) => line.orderId === orderId)
      .map((line) => `${line.title} × ${line.quantity}`)
      .join(", ");
  return {
    records: rows.map((row) => ({
      _id: row.id,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      price: centsToUsd(row.priceCents),
      discount: centsToUsd(row.discountCents),
      paymentMethod: row.paymentMethod,
      items: itemsOf(row.id),
    })),
    pager,
  };
}

export async function listTicketsOfCustomer(db: Executor, userId: string, page: number): Promise<CustomerTicketPage> {
  await assertCustomerExists(db, userId);
  return readRecordsPage(
    db,
    db.select().from(tickets).$dynamic(),
    {
      counted: tickets,
      where: eq(tickets.userId, userId),
      orderBy: [desc(tickets.updatedAt), desc(tickets.id)],
      page,
      pageSize: CUSTOMER_TICKETS_PAGE_SIZE,
    },
    (row) => ({
      _id: row.id,
      subject: row.subject,
      status: row.status,
      orderId: row.orderId,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    }),
  );
}

const staffMember = alias(users, "staff_member");

export async function listLedgerOfCustomer(db: Executor, userId: string, page: number): Promise<StaffLedgerPage> {
  await assertCustomerExists(db, userId);
  return readRecordsPage(
    db,
    db
      .select({
        ...ledgerEntryColumns,
        balanceAfterCents: balanceLedger.balanceAfterCents,
        staffEmail: staffMember.email,
      })
      .from(balanceLedger)
      .leftJoin(staffMember, eq(staffMember.id, balanceLedger.staffUserId))
      .$dynamic(),
    {
      ...ledgerOfCustomer(userId),
      page,
      pageSize: CUSTOMER_LEDGER_PAGE_SIZE,
    },
    (row) => ({
      _id: row.id,
      createdAt: row.createdAt.toISOString(),
      type: row.type,
      amount: centsToUsd(row.type === "out" ? -row.amountCents : row.amountCents),
      balanceAfter: centsToUsd(row.balanceAfterCents),
      note: row.note,
      orderId: row.orderId,
      staffEmail: row.staffEmail,
    }),
  );
}

// ---------------------------------------------------------------- changes (customersWrite)

export type BalanceAdjustment = {
  userId: string;
  direction: "credit" | "debit";
  amountCents: number;
  reason: string;
};

/**
 * Credits (`adjustment`) or debits (`out`, no order) a balance with one ledger entry naming the staff
 * member, the reason as its note. A debit is debitBalance's conditional UPDATE: of two debits at once
 * that only one fits, one is refused, and the balance never goes below zero. Nobody adjusts their own
 * balance (ADR 035).
 */
export async function adjustBalance(
  db: Database,
  actor: StaffActor,
  input: BalanceAdjustment,
): Promise<{ balance: number; message: string }> {
  if (input.userId === actor.userId) throw forbidden(CUSTOMER_MESSAGES.ownBalance);
  return db.transaction(async (tx) => {
    const [account] = await tx
      .select({ id: users.id, email: users.email, balanceCents: users.balanceCents })
      .from(users)
      .where(eq(users.id, input.userId));
    if (!account) throw notFound(CUSTOMER_MESSAGES.notFound);
    const link = { note: input.reason, staffUserId: actor.userId };
    let afterCents: number;
    if (input.direction === "credit") {
      ({ balanceAfterCents: afterCents } = await creditBalance(tx, account.id, input.amountCents, "adjustment", link));
    } else {
      try {
        ({ balanceAfterCents: afterCents } = await debitBalance(tx, account.id, input.amountCents, link));
      } catch (error) {
        if (!(error instanceof AppError && error.message === INSUFFICIENT_BALANCE)) throw error;
        const [now] = await tx.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, account.id));
        throw new AppError(409, belowZeroMessage(now.balanceCents), { amount: [belowZeroMessage(now.balanceCents)] });
      }
    }
    const beforeCents = input.direction === "credit" ? afterCents - input.amountCents : afterCents + input.amountCents;
    await auditAccount(tx, actor, account, `customer.balance.${input.direction}`, {
      before: { balance: usd(beforeCents) },
      after: { balance: usd(afterCents), reason: input.reason },
    });
    const verb = input.direction === "credit" ? "Credited" : "Debited";
    return {
      balance: centsToUsd(afterCents),
      message: `${verb} ${usd(input.amountCents)}: ${account.email} now has ${usd(afterCents)}`,
    };
  });
}

/** Who may block whom: only a role above the account's; nobody is above an owner, and nobody blocks themselves. */
const RANK: Record<Role, number> = { customer: 0, support: 1, manager: 2, owner: 3 };

function assertMayBlock(actor: StaffActor, account: { id: string; role: Role }): void {
  if (account.id === actor.userId) throw forbidden(CUSTOMER_MESSAGES.blockSelf);
  if (account.role === "owner") throw forbidden(CUSTOMER_MESSAGES.blockOwner);
  if (RANK[account.role] >= (RANK[actor.role as Role] ?? 0)) {
    throw forbidden(`Your role cannot block or unblock a ${ROLE_LABELS[account.role as keyof typeof ROLE_LABELS]}.`);
  }
}

async function lockAccount(tx: Executor, userId: string) {
  const [account] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
  if (!account) throw notFound(CUSTOMER_MESSAGES.notFound);
  return account;
}

type BlockChange = { userId: string; reason: string };

/** A block or an unblock, on the locked account if the actor may block it; answers the customer as it is now. */
async function changeBlock(
  db: Database,
  actor: StaffActor,
  userId: string,
  change: (tx: Executor, account: typeof users.$inferSelect) => Promise<void>,
): Promise<Customer> {
  await db.transaction(async (tx) => {
    const account = await lockAccount(tx, userId);
    assertMayBlock(actor, account);
    await change(tx, account);
  });
  return readCustomer(db, userId);
}

/** Blocks an account: sign-in refused, and every session revoked in the same transaction. */
export async function blockCustomer(db: Database, actor: StaffActor, input: BlockChange, now = new Date()) {
  return changeBlock(db, actor, input.userId, async (tx, account) => {
    if (account.blockedAt) throw conflict(CUSTOMER_MESSAGES.alreadyBlocked);
    await tx
      .update(users)
      .set({ blockedAt: now, blockReason: input.reason, updatedAt: now })
      .where(eq(users.id, account.id));
    await revokeAllSessions(tx, account.id, { now });
    await auditAccount(tx, actor, account, "customer.block", {
      before: { blocked: false },
      after: { blocked: true, reason: input.reason },
    });
  });
}

/** Lifts a block; the customer signs in again (their old sessions stay revoked). */
export async function unblockCustomer(db: Database, actor: StaffActor, input: BlockChange, now = new Date()) {
  return changeBlock(db, actor, input.userId, async (tx, account) => {
    if (!account.blockedAt) throw conflict(CUSTOMER_MESSAGES.notBlocked);
    await tx.update(users).set({ blockedAt: null, blockReason: "", updatedAt: now }).where(eq(users.id, account.id));
    await auditAccount(tx, actor, account, "customer.unblock", {
      before: { blocked: true, reason: account.blockReason },
      after: { blocked: false, reason: input.reason },
    });
  });
}
