import { type SQL, and, asc, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import {
  type FeedbackFilter,
  INBOX_PAGE_SIZE,
  type RequestFilter,
  type TicketFilter,
} from "../../../contract/admin-inbox";
import { DELETED_CUSTOMER } from "../../../contract/privacy";
import { STAFF_AUTHOR } from "../../../contract/ticket";
import type {
  FeedbackReplySet,
  FeedbackVisibilitySet,
  ReplacementSettings,
  StaffFeedbackPage,
  StaffRequestPage,
  StaffTicket,
  StaffTicketPage,
} from "../../../contract/answers/admin-inbox";
import { alias } from "drizzle-orm/pg-core";
import type { Database, Executor } from "../../db/client";
import {
  feedback,
  orderProducts,
  productOptions,
  products,
  requests,
  stockCredentials,
  ticketMessages,
  tickets,
  users,
} from "../../db/schema";
import { notFound } from "../../errors";

/** The staff member who resolved a request, beside the customer who made it. */
const resolver = alias(users, "resolver");
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, countRows, readPage } from "../shared/paging";
import { TICKET_MESSAGES } from "./tickets";

/*
 * The staff inbox (ADR 029): every customer's tickets, the queue of replacement and other requests, and
 * feedback moderation. Replies, completions and rejections go through the same service calls the
 * customer's side is built on (tickets.ts, requests.ts), which mail the customer; this module adds the
 * staff's lists and the settings and moderation changes, each audited in its own transaction.
 */

export const INBOX_MESSAGES = {
  feedbackNotFound: "This review does not exist",
  productNotFound: "This product does not exist",
} as const;

// ---------------------------------------------------------------- tickets

/** The customer's address, or the one a guest gave on the contact form. */
/** A deleted customer's tombstone is shown as DELETED_CUSTOMER, never as its placeholder name (ADR 044). */
const customerEmail = sql<string>`case when ${users.deletedAt} is null then ${users.email} else ${DELETED_CUSTOMER} end`;
const customerName = sql<string>`case when ${users.deletedAt} is null then ${users.username} else ${DELETED_CUSTOMER} end`;
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

// ---------------------------------------------------------------- requests

export async function listStaffRequests(
  db: Executor,
  query: { filter: RequestFilter; search: string; page: number },
): Promise<StaffRequestPage> {
  const conditions: SQL[] = [];
  if (query.filter !== "all") conditions.push(eq(requests.status, query.filter));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(
      or(ilike(users.email, pattern), ilike(orderProducts.title, pattern), eq(requests.orderId, query.search))!,
    );
  }
  const where = and(...conditions);
  // The oldest pending request first: the queue is worked in the order customers asked.
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        request: requests,
        email: customerEmail,
        productId: products.id,
        productTitle: orderProducts.title,
        optionTitle: productOptions.title,
        optionId: productOptions.id,
        autoReplace: products.autoReplace,
        replacementLimit: products.replacementLimit,
        resolvedBy: resolver.email,
      })
      .from(requests)
      .innerJoin(users, eq(users.id, requests.userId))
      .innerJoin(orderProducts, eq(orderProducts.id, requests.orderProductId))
      .innerJoin(productOptions, eq(productOptions.id, orderProducts.optionId))
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .leftJoin(resolver, eq(resolver.id, requests.resolvedBy))
      .$dynamic(),
    {
      counted: countRows(db)
        .from(requests)
        .innerJoin(users, eq(users.id, requests.userId))
        .innerJoin(orderProducts, eq(orderProducts.id, requests.orderProductId))
        .$dynamic(),
      where,
      orderBy: [query.filter === "pending" ? asc(requests.createdAt) : desc(requests.createdAt), desc(requests.id)],
      page: query.page,
      pageSize: INBOX_PAGE_SIZE,
    },
  );
  const optionIds = [...new Set(rows.map((row) => row.optionId))];
  const stock =
    optionIds.length === 0
      ? []
      : await db
          .select({ optionId: stockCredentials.optionId, available: count() })
          .from(stockCredentials)
          .where(and(inArray(stockCredentials.optionId, optionIds), eq(stockCredentials.status, "available")))
          .groupBy(stockCredentials.optionId);
  return {
    records: rows.map(({ request, ...row }) => ({
      _id: request.id,
      kind: request.kind,
      status: request.status,
      message: request.message,
      answer: request.answer,
      credentialIndex: request.credentialIndex,
      customer: { _id: request.userId, email: row.email },
      orderId: request.orderId,
      product: {
        _id: row.productId,
        title: row.productTitle,
        optionTitle: row.optionTitle,
        autoReplace: row.autoReplace,
        replacementLimit: row.replacementLimit,
      },
      availableStock: Number(stock.find((entry) => entry.optionId === row.optionId)?.available ?? 0),
      createdAt: request.createdAt.toISOString(),
      resolvedAt: request.resolvedAt?.toISOString() ?? null,
      resolvedBy: row.resolvedBy ?? null,
    })),
    pager,
  };
}

export async function listReplacementSettings(db: Executor): Promise<ReplacementSettings[]> {
  return db
    .select({
      _id: products.id,
      title: products.title,
      autoReplace: products.autoReplace,
      replacementLimit: products.replacementLimit,
    })
    .from(products)
    .orderBy(asc(products.position), asc(products.title));
}

/** A product's automatic replacement switch and how often one credential may be replaced. */
export async function setReplacementSettings(
  db: Database,
  actor: StaffActor,
  productId: string,
  input: { autoReplace: boolean; replacementLimit: number },
): Promise<ReplacementSettings> {
  return db.transaction(async (tx) => {
    const [before] = await tx.select().from(products).where(eq(products.id, productId)).for("update");
    if (!before) throw notFound(INBOX_MESSAGES.productNotFound);
    await tx.update(products).set(input).where(eq(products.id, productId));
    await recordAudit(tx, actor, {
      action: "product.replacement-settings",
      objectType: "product",
      objectId: productId,
      objectLabel: before.title,
      before: { autoReplace: before.autoReplace, replacementLimit: before.replacementLimit },
      after: input,
    });
    return { _id: productId, title: before.title, ...input };
  });
}

// ---------------------------------------------------------------- feedback

export async function listStaffFeedback(
  db: Executor,
  query: { filter: FeedbackFilter; search: string; page: number },
): Promise<StaffFeedbackPage> {
  const conditions: SQL[] = [];
  if (query.filter !== "all") conditions.push(eq(feedback.visible, query.filter === "shown"));
  if (query.search) {
    const pattern = containsPattern(query.search);
    conditions.push(or(ilike(feedback.message, pattern), ilike(products.title, pattern), ilike(users.email, pattern))!);
  }
  const where = and(...conditions);
  const { pager, rows } = await readPage(
    db,
    db
      .select({ review: feedback, email: customerEmail, productTitle: products.title })
      .from(feedback)
      .innerJoin(users, eq(users.id, feedback.userId))
      .innerJoin(products, eq(products.id, feedback.productId))
      .$dynamic(),
    {
      counted: countRows(db)
        .from(feedback)
        .innerJoin(users, eq(users.id, feedback.userId))
        .innerJoin(products, eq(products.id, feedback.productId))
        .$dynamic(),
      where,
      orderBy: [desc(feedback.updatedAt), desc(feedback.id)],
      page: query.page,
      pageSize: INBOX_PAGE_SIZE,
    },
  );
  return {
    records: rows.map(({ review, email, productTitle }) => ({
      _id: review.id,
      stars: review.stars,
      message: review.message,
      visible: review.visible,
      reply: review.reply,
      repliedAt: review.repliedAt?.toISOString() ?? null,
      customer: { _id: review.userId, email },
      product: { _id: review.productId, title: productTitle },
      updatedAt: review.updatedAt.toISOString(),
    })),
    pager,
  };
}

async function lockedReview(tx: Executor, feedbackId: string) {
  const [review] = await tx.select().from(feedback).where(eq(feedback.id, feedbackId)).for("update");
  if (!review) throw notFound(INBOX_MESSAGES.feedbackNotFound);
  return review;
}

const reviewLabel = (review: { stars: number; message: string }) => `${review.stars}★ ${review.message.slice(0, 60)}`;

/** Hides a review from /feedback and the product's rating, or shows it again. */
export async function setFeedbackVisible(
  db: Database,
  actor: StaffActor,
  feedbackId: string,
  visible: boolean,
): Promise<FeedbackVisibilitySet> {
  return db.transaction(async (tx) => {
    const review = await lockedReview(tx, feedbackId);
    // updatedAt stays: hiding is not the customer's edit, and the public list sorts by it.
    if (review.visible !== visible) {
      await tx.update(feedback).set({ visible }).where(eq(feedback.id, feedbackId));
      await recordAudit(tx, actor, {
        action: visible ? "feedback.show" : "feedback.hide",
        objectType: "feedback",
        objectId: feedbackId,
        objectLabel: reviewLabel(review),
        before: { visible: review.visible },
        after: { visible },
      });
    }
    return { visible };
  });
}

/** The store's public reply under a review ('Admin'); an empty reply removes it. */
export async function setFeedbackReply(
  db: Database,
  actor: StaffActor,
  feedbackId: string,
  reply: string,
): Promise<FeedbackReplySet> {
  return db.transaction(async (tx) => {
    const review = await lockedReview(tx, feedbackId);
    const next = reply === "" ? null : reply;
    await tx
      .update(feedback)
      .set({ reply: next, repliedAt: next ? new Date() : null, repliedBy: next ? actor.userId : null })
      .where(eq(feedback.id, feedbackId));
    await recordAudit(tx, actor, {
      action: next ? "feedback.reply" : "feedback.reply-remove",
      objectType: "feedback",
      objectId: feedbackId,
      objectLabel: reviewLabel(review),
      before: { reply: review.reply },
      after: { reply: next },
    });
    return { reply: next };
  });
}
