import { type SQL, and, asc, count, desc, eq, ilike, inArray } from "drizzle-orm";
import { OPEN_TICKETS_LIMIT, STAFF_AUTHOR, TICKETS_PAGE_SIZE } from "../../../contract/ticket";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { orders, ticketMessages, tickets, users } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { type StaffActor, recordAudit } from "../staff/audit";
import { notifyOperator } from "../notifications/operator-notices";
import { contactUrl, issueTicketLink } from "./ticket-links";
import { enqueueTicketReplyMail, guestTicketAnswerMail } from "./ticket-mail";
import { enqueueMail } from "../../mail/outbox";
import { containsPattern, readPage, type Pager } from "../shared/paging";
import { type RateRule, hitRateLimit } from "../guards/rate-limit";
import type { Ticket } from "../../../contract/answers/ticket";
import { idsOf } from "../shared/rows";

/*
 * Support tickets. A customer sees and changes only their own: a foreign id answers the same 404 as
 * an unknown one, so ids cannot be probed. Staff write as 'Admin' (spec section 6); their own name
 * never leaves the server. Closed tickets are read only until reopened.
 */

export const TICKET_MESSAGES = {
  notFound: "Ticket not found",
  closed: "This ticket is closed. Reopen it to write again.",
  foreignOrder: "Choose one of your orders",
  tooManyOpen: `You have ${OPEN_TICKETS_LIMIT} open tickets. Close one before opening another.`,
} as const;

/** Messages (a new ticket counts as one) per customer per minute, as the other per-account limits. */
export const TICKET_MESSAGE_RULE: RateRule = { name: "ticket-message:account", limit: 10, windowMs: 60_000 };

export type TicketDeps = { db: Database; config: Config; logger: Logger };

export type TicketView = Ticket;
export type TicketListQuery = { page: number; search: string; sortBy: "updatedAt" | "createdAt" };

type TicketRow = typeof tickets.$inferSelect;

async function ticketViews(db: Executor, rows: TicketRow[]): Promise<TicketView[]> {
  if (rows.length === 0) return [];
  const messages = await db
    .select({
      id: ticketMessages.id,
      ticketId: ticketMessages.ticketId,
      fromStaff: ticketMessages.fromStaff,
      message: ticketMessages.message,
      createdAt: ticketMessages.createdAt,
    })
    .from(ticketMessages)
    .where(inArray(ticketMessages.ticketId, idsOf(rows)))
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  // The customer's own messages carry their current username; a ticket has one customer.
  const owners = await db
    .select({ id: users.id, username: users.username })
    .from(users)
    .where(inArray(users.id, [...new Set(rows.flatMap((row) => (row.userId ? [row.userId] : [])))]));
  return rows.map((row) => {
    const ownerName = owners.find((owner) => owner.id === row.userId)?.username ?? "You";
    return {
      _id: row.id,
      orderId: row.orderId,
      subject: row.subject,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
      messages: messages
        .filter((message) => message.ticketId === row.id)
        .map((message) => ({
          _id: message.id,
          username: message.fromStaff ? STAFF_AUTHOR : ownerName,
          message: message.message,
          timestamp: message.createdAt.toISOString(),
        })),
    };
  });
}

/** The customer's ticket, locked for the rest of the transaction; 404 when it is not theirs. */
async function ownTicketForUpdate(db: Executor, userId: string, ticketId: string): Promise<TicketRow> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), eq(tickets.userId, userId)))
    .for("update");
  if (!row) throw notFound(TICKET_MESSAGES.notFound);
  return row;
}

/** Locks the customer's row so two concurrent opens cannot both pass the open-ticket cap. */
async function assertRoomForAnOpenTicket(db: Executor, userId: string): Promise<void> {
  await db.select({ id: users.id }).from(users).where(eq(users.id, userId)).for("update");
  const [{ open }] = await db
    .select({ open: count() })
    .from(tickets)
    .where(and(eq(tickets.userId, userId), eq(tickets.status, "open")));
  if (Number(open) >= OPEN_TICKETS_LIMIT) throw conflict(TICKET_MESSAGES.tooManyOpen);
}

async function readOwnTicket(db: Executor, userId: string, ticketId: string): Promise<TicketView> {
  const [row] = await db
    .select()
    .from(tickets)
    .where(and(eq(tickets.id, ticketId), eq(tickets.userId, userId)));
  if (!row) throw notFound(TICKET_MESSAGES.notFound);
  return (await ticketViews(db, [row]))[0];
}

export async function listTickets(
  db: Executor,
  userId: string,
  query: TicketListQuery,
): Promise<{ records: TicketView[]; pager: Pager }> {
  const conditions: SQL[] = [eq(tickets.userId, userId)];
  const search = query.search.trim();
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(ilike(tickets.subject, pattern));
  }
  const where = and(...conditions);
  const sortColumn = query.sortBy === "createdAt" ? tickets.createdAt : tickets.updatedAt;
  const { pager, rows } = await readPage(db, db.select().from(tickets).$dynamic(), {
    counted: tickets,
    where,
    orderBy: [desc(sortColumn), desc(tickets.id)],
    page: query.page,
    pageSize: TICKETS_PAGE_SIZE,
  });
  return {
    records: await ticketViews(db, rows),
    pager,
  };
}

export function readTicket(db: Executor, userId: string, ticketId: string): Promise<TicketView> {
  return readOwnTicket(db, userId, ticketId);
}

export async function openTicket(
  deps: TicketDeps,
  input: { userId: string; orderId: string; subject: string; message: string },
): Promise<TicketView> {
  await hitRateLimit(deps.db, TICKET_MESSAGE_RULE, input.userId, { scale: deps.config.rateLimitScale });
  const ticket = await deps.db.transaction(async (tx) => {
    if (input.orderId) {
      const [order] = await tx
        .select({ id: orders.id })
        .from(orders)
        .where(and(eq(orders.id, input.orderId), eq(orders.userId, input.userId)));
      if (!order) throw badRequest(TICKET_MESSAGES.foreignOrder, { orderId: [TICKET_MESSAGES.foreignOrder] });
    }
    await assertRoomForAnOpenTicket(tx, input.userId);
    const [row] = await tx
      .insert(tickets)
      .values({ userId: input.userId, orderId: input.orderId, subject: input.subject })
      .returning();
    await tx.insert(ticketMessages).values({ ticketId: row.id, authorUserId: input.userId, message: input.message });
    await notifyOperator(tx, deps.config, {
      event: "ticket.opened",
      key: row.id,
      data: { ticketId: row.id, orderId: row.orderId || null },
    });
    return (await ticketViews(tx, [row]))[0];
  });
  deps.logger.info("ticket opened", { ticketId: ticket._id });
  return ticket;
}

/** Adds a message to an open ticket and moves it up the list; closed tickets refuse with 409. Answers its id. */
export async function appendMessage(
  tx: Executor,
  ticket: TicketRow,
  message: { authorUserId: string | null; fromStaff: boolean; message: string },
): Promise<string> {
  if (ticket.status === "closed") throw conflict(TICKET_MESSAGES.closed);
  const [added] = await tx
    .insert(ticketMessages)
    .values({ ticketId: ticket.id, ...message })
    .returning({ id: ticketMessages.id, createdAt: ticketMessages.createdAt });
  await tx
    .update(tickets)
    .set({ updatedAt: added.createdAt, awaitingStaff: !message.fromStaff })
    .where(eq(tickets.id, ticket.id));
  return added.id;
}

export async function sendCustomerMessage(
  deps: TicketDeps,
  input: { userId: string; ticketId: string; message: string },
): Promise<TicketView> {
  await hitRateLimit(deps.db, TICKET_MESSAGE_RULE, input.userId, { scale: deps.config.rateLimitScale });
  return deps.db.transaction(async (tx) => {
    const ticket = await ownTicketForUpdate(tx, input.userId, input.ticketId);
    const messageId = await appendMessage(tx, ticket, {
      authorUserId: input.userId,
      fromStaff: false,
      message: input.message,
    });
    await notifyOperator(tx, deps.config, {
      event: "ticket.reply",
      key: messageId,
      data: { ticketId: ticket.id, orderId: ticket.orderId || null },
    });
    return readOwnTicket(tx, input.userId, input.ticketId);
  });
}

export async function setTicketStatus(
  db: Database,
  input: { userId: string; ticketId: string; status: "open" | "closed" },
): Promise<TicketView> {
  return db.transaction(async (tx) => {
    const ticket = await ownTicketForUpdate(tx, input.userId, input.ticketId);
    if (ticket.status !== input.status) {
      if (input.status === "open") await assertRoomForAnOpenTicket(tx, input.userId);
      await tx.update(tickets).set({ status: input.status, updatedAt: new Date() }).where(eq(tickets.id, ticket.id));
    }
    return readOwnTicket(tx, input.userId, input.ticketId);
  });
}

/**
 * A staff answer, shown as 'Admin'. The customer is mailed a link to the ticket in the same
 * transaction (the outbox sends it only if the answer is saved); a guest is mailed the answer with a
 * fresh link to the conversation (ADR 039). The back office calls this.
 */
export async function addStaffReply(
  deps: Pick<TicketDeps, "db" | "config">,
  input: { ticketId: string; staffUserId: string | null; message: string; actor?: StaffActor },
): Promise<void> {
  const message = input.message.trim();
  if (!message) throw badRequest("Message is required", { message: ["Message is required"] });
  await deps.db.transaction(async (tx) => {
    const [ticket] = await tx.select().from(tickets).where(eq(tickets.id, input.ticketId)).for("update");
    if (!ticket) throw notFound(TICKET_MESSAGES.notFound);
    const messageId = await appendMessage(tx, ticket, { authorUserId: input.staffUserId, fromStaff: true, message });
    if (input.actor) {
      await recordAudit(tx, input.actor, {
        action: "ticket.reply",
        objectType: "ticket",
        objectId: ticket.id,
        objectLabel: ticket.subject,
        after: { messageId, characters: message.length },
      });
    }
    if (!ticket.userId) {
      const token = await issueTicketLink(tx, ticket.id);
      await enqueueMail(
        tx,
        guestTicketAnswerMail({
          to: ticket.guestEmail!,
          subject: ticket.subject,
          answer: message,
          link: contactUrl(deps.config.publicUrl, token),
        }),
      );
      return;
    }
    // The ticket's foreign key cascades, so its customer exists.
    const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, ticket.userId));
    await enqueueTicketReplyMail(tx, {
      to: owner.email,
      ticketId: ticket.id,
      subject: ticket.subject,
      publicUrl: deps.config.publicUrl,
    });
  });
}
