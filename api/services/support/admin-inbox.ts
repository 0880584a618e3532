import { type SQL, and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { INBOX_PAGE_SIZE, type TicketFilter } from "../../../contract/admin-inbox";
import { DELETED_CUSTOMER } from "../../../contract/privacy";
import { STAFF_AUTHOR } from "../../../contract/ticket";
import type { StaffTicket, StaffTicketPage } from "../../../contract/answers/admin-inbox";
import type { Database, Executor } from "../../db/client";
import { ticketMessages, tickets, users } from "../../db/schema";
import { notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, countRows, readPage } from "../shared/paging";
import { TICKET_MESSAGES } from "./tickets";

/*
 * The staff inbox (ADR 029): every customer's tickets here, the queue of requests in admin-requests.ts and
 * feedback moderation in admin-feedback.ts. Replies, completions and rejections go through the same service
 * calls the customer's side is built on (tickets.ts, request-records.ts), which mail the customer; the inbox
 * adds the staff's lists and the settings and moderation changes, each audited in its own transaction.
 */

export const INBOX_MESSAGES = {
  feedbackNotFound: "This review does not exist",
  productNotFound: "This product does not exist",
} as const;

/** A deleted customer's tombstone is shown as DELETED_CUSTOMER, never as its placeholder name (ADR 044). */
export const customerEmail = sql<string>`case when ${users.deletedAt} is null then ${users.email} else ${DELETED_CUSTOMER} end`;
const customerName = sql<string>`case when ${users.deletedAt} is null then ${users.username} else ${DELETED_CUSTOMER} end`;
/** The customer's address, or the one a guest gave on the contact form. */
const ticketEmail = sql<string>`coalesce(${customerEmail}, ${tickets.guestEmail})`;
/** How staff see a guest's own messages. */
const GUEST_NAME = "Guest";

export async function listStaffTickets(
  db: Executor,
  query: { filter: TicketFilter; search: string; page: number },
): Promise<StaffTicketPage> {
  const conditions: SQL[] = [];
  if (query.filter === "waiting") conditions.push(eq(tickets.status, "open"), eq(tickets.awaitingStaff, true));
  if (query.filter === "open") conditions.push(eq(tickets.status, "open"));
  if (query.filter === "closed") conditions.push(eq(tickets.status, "closed"));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      or(ilike(tickets.subject, pattern), ilike(ticketEmail, pattern), eq(tickets.orderId, query.search))!,
    );
  }
  const where = and(...conditions);
  // Waiting the longest first when staff work the queue; otherwise the latest activity first.
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: tickets.id,
        subject: tickets.subject,
        status: tickets.status,
        waiting: tickets.awaitingStaff,
        userId: tickets.userId,
        email: ticketEmail,
        orderId: tickets.orderId,
        updatedAt: tickets.updatedAt,
      })
      .from(tickets)
      .leftJoin(users, eq(users.id, tickets.userId))
      .$dynamic(),
    {
      counted: countRows(db).from(tickets).leftJoin(users, eq(users.id, tickets.userId)).$dynamic(),
      where,
      orderBy: [query.filter === "waiting" ? asc(tickets.updatedAt) : desc(tickets.updatedAt), desc(tickets.id)],
      page: query.page,
      pageSize: INBOX_PAGE_SIZE,
    },
  );
  const ids = rows.map((row) => row.id);
  const stats =
    ids.length === 0
      ? []
      : await db
          .select({
            ticketId: ticketMessages.ticketId,
            messages: count(),
            last: sql<string>`(array_agg(${ticketMessages.message} order by ${ticketMessages.createdAt} desc, ${ticketMessages.id} desc))[1]`,
          })
          .from(ticketMessages)
          .where(inArray(ticketMessages.ticketId, ids))
          .groupBy(ticketMessages.ticketId);
  return {
    records: rows.map((row) => {
      const stat = stats.find((candidate) => candidate.ticketId === row.id);
      return {
        _id: row.id,
        subject: row.subject,
        status: row.status,
        waiting: row.status === "open" && row.waiting,
        customer: { _id: row.userId, email: row.email, guest: row.userId === null },
        orderId: row.orderId,
        messages: Number(stat?.messages ?? 0),
        lastMessage: (stat?.last ?? "").slice(0, 160),
        updatedAt: row.updatedAt.toISOString(),
      };
    }),
    pager,
  };
}

export async function readStaffTicket(db: Executor, ticketId: string): Promise<StaffTicket> {
  const [row] = await db
    .select({ ticket: tickets, email: ticketEmail, username: customerName })
    .from(tickets)
    .leftJoin(users, eq(users.id, tickets.userId))
    .where(eq(tickets.id, ticketId));
  if (!row) throw notFound(TICKET_MESSAGES.notFound);
  const messages = await db
    .select({
      id: ticketMessages.id,
      fromStaff: ticketMessages.fromStaff,
      message: ticketMessages.message,
      createdAt: ticketMessages.createdAt,
      authorEmail: users.email,
    })
    .from(ticketMessages)
    .leftJoin(users, eq(users.id, ticketMessages.authorUserId))
    .where(eq(ticketMessages.ticketId, ticketId))
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  const { ticket } = row;
  return {
    _id: ticket.id,
    subject: ticket.subject,
    status: ticket.status,
    waiting: ticket.status === "open" && ticket.awaitingStaff,
    customer: { _id: ticket.userId, email: row.email, guest: ticket.userId === null },
    orderId: ticket.orderId,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    messages: messages.map((message) => ({
      _id: message.id,
      // Staff see who answered; the customer only ever sees 'Admin'.
      author: message.fromStaff ? STAFF_AUTHOR : (row.username ?? GUEST_NAME),
      fromStaff: message.fromStaff,
      staffEmail: message.fromStaff ? (message.authorEmail ?? null) : null,
      message: message.message,
      at: message.createdAt.toISOString(),
    })),
  };
}

/** Staff close or reopen any ticket (a customer's own cap on open tickets is theirs, not staff's). */
export async function setStaffTicketStatus(
  db: Database,
  actor: StaffActor,
  ticketId: string,
  status: "open" | "closed",
): Promise<{ subject: string; changed: boolean }> {
  return db.transaction(async (tx) => {
    const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, ticketId)).for("update");
    if (!ticket) throw notFound(TICKET_MESSAGES.notFound);
    if (ticket.status === status) return { subject: ticket.subject, changed: false };
    await tx.update(tickets).set({ status, updatedAt: new Date() }).where(eq(tickets.id, ticketId));
    await recordAudit(tx, actor, {
      action: status === "closed" ? "ticket.close" : "ticket.reopen",
      objectType: "ticket",
      objectId: ticketId,
      objectLabel: ticket.subject,
      before: { status: ticket.status },
      after: { status },
    });
    return { subject: ticket.subject, changed: true };
  });
}
