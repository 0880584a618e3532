import { and, asc, eq, or, sql } from "drizzle-orm";
import { CONTACT_CLOSED, CONTACT_NOT_FOUND, CONTACT_ORDER_NOT_FOUND, GUEST_AUTHOR } from "../../../contract/contact";
import type { GuestTicket } from "../../../contract/answers/contact";
import { STAFF_AUTHOR, TICKET_SUBJECT_MAX_LENGTH } from "../../../contract/ticket";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { orders, ticketMessages, tickets, users } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { enqueueMail } from "../../mail/outbox";
import { assertHuman } from "../guards/human-check";
import { notifyOperator } from "../notifications/operator-notices";
import { type RateRule, hitRateLimit, subjectKey } from "../guards/rate-limit";
import { contactUrl, issueTicketLink, ticketIdOfLink } from "./ticket-links";
import { guestTicketOpenedMail } from "./ticket-mail";
import { appendMessage } from "./tickets";

/*
 * Guest support (issue 26 item 3, ADR 039). The contact form opens a ticket with an email and no account; its
 * conversation is reached only through the links mailed to that email, so whoever opens a ticket in someone
 * else's name reads nothing and the answers go to the address's owner. Staff answer in the same inbox as
 * customers' tickets (tickets.addStaffReply), and a closed ticket takes no more messages from anyone.
 */

const MINUTE = 60_000;
const HOUR = 60 * MINUTE;

export const CONTACT_RULES = {
  /** New guest tickets from one address, and mailed to one email: each one sends a mail. */
  openPerAddress: { name: "contact-open:ip", limit: 10, windowMs: HOUR },
  openPerEmail: { name: "contact-open:email", limit: 5, windowMs: HOUR },
  /** Conversation views per address, as order lookups: links are unguessable, and this keeps anyone from trying. */
  readPerAddress: { name: "contact-read:ip", limit: 120, windowMs: 15 * MINUTE },
  /** Guest messages per address and per conversation. */
  replyPerAddress: { name: "contact-reply:ip", limit: 30, windowMs: 15 * MINUTE },
  replyPerTicket: { name: "contact-reply:ticket", limit: 10, windowMs: 15 * MINUTE },
} satisfies Record<string, RateRule>;

export type GuestTicketDeps = { db: Database; config: Config; logger: Logger };

/** A guest's ticket is named by its first line: the form asks for no subject. */
export function subjectOf(message: string): string {
  const firstLine = message.trim().split(/\r?\n/, 1)[0].trim();
  const characters = Array.from(firstLine);
  const limit = Math.min(60, TICKET_SUBJECT_MAX_LENGTH);
  return characters.length <= limit ? firstLine : `${characters.slice(0, limit - 1).join("")}…`;
}

/** The order, when it is one of this email's (its own address, or its account's now); else the one 400. */
async function assertOrderOfEmail(db: Executor, orderId: string, email: string): Promise<void> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .leftJoin(users, eq(users.id, orders.userId))
    .where(
      and(
        eq(orders.id, orderId),
        or(sql`lower(${orders.email}) = lower(${email})`, sql`lower(${users.email}) = lower(${email})`),
      ),
    );
  if (!order) throw badRequest(CONTACT_ORDER_NOT_FOUND, { orderId: [CONTACT_ORDER_NOT_FOUND] });
}

export async function openGuestTicket(
  deps: GuestTicketDeps,
  input: { email: string; orderId: string; message: string; humanCheck: string | undefined; clientIp: string },
): Promise<{ ticketId: string }> {
  const now = new Date();
  const scale = deps.config.rateLimitScale;
  await hitRateLimit(deps.db, CONTACT_RULES.openPerAddress, input.clientIp, { now, scale });
  await hitRateLimit(deps.db, CONTACT_RULES.openPerEmail, subjectKey(input.email), { now, scale });
  await assertHuman(deps, input.humanCheck, { ip: input.clientIp, now });
  const ticketId = await deps.db.transaction(async (tx) => {
    if (input.orderId) await assertOrderOfEmail(tx, input.orderId, input.email);
    const [row] = await tx
      .insert(tickets)
      .values({ userId: null, guestEmail: input.email, orderId: input.orderId, subject: subjectOf(input.message) })
      .returning();
    await tx.insert(ticketMessages).values({ ticketId: row.id, authorUserId: null, message: input.message });
    const token = await issueTicketLink(tx, row.id);
    await enqueueMail(
      tx,
      guestTicketOpenedMail({ to: input.email, subject: row.subject, link: contactUrl(deps.config.publicUrl, token) }),
    );
    await notifyOperator(tx, deps.config, {
      event: "ticket.opened",
      key: row.id,
      data: { ticketId: row.id, orderId: row.orderId || null },
    });
    return row.id;
  });
  deps.logger.info("guest ticket opened", { ticketId });
  return { ticketId };
}

async function guestView(db: Executor, ticket: typeof tickets.$inferSelect): Promise<GuestTicket> {
  const messages = await db
    .select()
    .from(ticketMessages)
    .where(eq(ticketMessages.ticketId, ticket.id))
    .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id));
  return {
    _id: ticket.id,
    orderId: ticket.orderId,
    subject: ticket.subject,
    status: ticket.status,
    createdAt: ticket.createdAt.toISOString(),
    updatedAt: ticket.updatedAt.toISOString(),
    messages: messages.map((message) => ({
      _id: message.id,
      username: message.fromStaff ? STAFF_AUTHOR : GUEST_AUTHOR,
      message: message.message,
      timestamp: message.createdAt.toISOString(),
    })),
  };
}

/** The guest ticket a link opens, locked with `forUpdate`; an unknown link is a 404. */
async function ticketOfLink(db: Executor, token: string, options: { forUpdate?: boolean } = {}) {
  const ticketId = await ticketIdOfLink(db, token);
  if (!ticketId) throw notFound(CONTACT_NOT_FOUND);
  const query = db.select().from(tickets).where(eq(tickets.id, ticketId));
  const [ticket] = options.forUpdate ? await query.for("update") : await query;
  // Links are only ever made for guests' tickets; a customer's is read behind the sign-in.
  if (!ticket || ticket.userId) throw notFound(CONTACT_NOT_FOUND);
  return ticket;
}

export async function readGuestTicket(
  deps: Pick<GuestTicketDeps, "db" | "config">,
  input: { token: string; clientIp: string },
): Promise<GuestTicket> {
  await hitRateLimit(deps.db, CONTACT_RULES.readPerAddress, input.clientIp, { scale: deps.config.rateLimitScale });
  return guestView(deps.db, await ticketOfLink(deps.db, input.token));
}

export async function sendGuestMessage(
  deps: GuestTicketDeps,
  input: { token: string; message: string; clientIp: string },
): Promise<GuestTicket> {
  const scale = deps.config.rateLimitScale;
  await hitRateLimit(deps.db, CONTACT_RULES.replyPerAddress, input.clientIp, { scale });
  const known = await ticketOfLink(deps.db, input.token);
  await hitRateLimit(deps.db, CONTACT_RULES.replyPerTicket, known.id, { scale });
  return deps.db.transaction(async (tx) => {
    const ticket = await ticketOfLink(tx, input.token, { forUpdate: true });
    // The customer's words ("Reopen it") name a button a guest does not have.
    if (ticket.status === "closed") throw conflict(CONTACT_CLOSED);
    const messageId = await appendMessage(tx, ticket, { authorUserId: null, fromStaff: false, message: input.message });
    await notifyOperator(tx, deps.config, {
      event: "ticket.reply",
      key: messageId,
      data: { ticketId: ticket.id, orderId: ticket.orderId || null },
    });
    return guestView(tx, await ticketOfLink(tx, input.token));
  });
}
