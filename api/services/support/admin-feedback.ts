import { type SQL, and, desc, eq, ilike, or } from "drizzle-orm";
import { type FeedbackFilter, INBOX_PAGE_SIZE } from "../../../contract/admin-inbox";
import type { FeedbackReplySet, FeedbackVisibilitySet, StaffFeedbackPage } from "../../../contract/answers/admin-inbox";
import type { Database, Executor } from "../../db/client";
import { feedback, products, users } from "../../db/schema";
import { notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, countRows, readPage } from "../shared/paging";
import { INBOX_MESSAGES, customerEmail } from "./admin-inbox";

/* Feedback moderation in the staff inbox (ADR 029): the reviews list, hiding a review, the store's reply. */

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
