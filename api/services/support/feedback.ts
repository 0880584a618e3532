import { type SQL, and, asc, avg, count, desc, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { FEEDBACK_PAGE_SIZE } from "../../../contract/feedback";
import { PAID_ORDER_STATUSES } from "../../../contract/order";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { deliveredCredentials, feedback, orderProducts, orders, products } from "../../db/schema";
import { forbidden, notFound } from "../../errors";
import { containsPattern, countRows, readPage, type Pager } from "../shared/paging";
import { type RateRule, hitRateLimit } from "../guards/rate-limit";
import type { OwnFeedback, PublicFeedback } from "../../../contract/answers/feedback";

/*
 * Public feedback from verified buyers (ADR 021). A customer rates a product they received in one of their
 * own orders: one feedback per order line, which a later post edits. The public list shows only what the
 * operator has not hidden, and never who wrote it (a guest's username is their email).
 */

export const FEEDBACK_MESSAGES = {
  notReceived: "You can leave feedback only for a product you received in one of your orders.",
  orderNotFound: "Order not found",
  created: "Thank you for your feedback!",
  updated: "Your feedback was updated.",
} as const;

/** Feedback posts (edits included) per customer per minute. */
export const FEEDBACK_RULE: RateRule = { name: "feedback:account", limit: 10, windowMs: 60_000 };

export type FeedbackListQuery = { page: number; search: string; sortBy: "updatedAt" | "createdAt"; productId?: string };
export type FeedbackInput = {
  userId: string;
  orderId: string;
  productId: string;
  productOptionId: string;
  stars: number;
  message: string;
  now?: Date;
};

/**
 * Leaves (or edits) the customer's feedback on a line of one of their paid orders that has at least one
 * delivered credential. Anything else (not bought, someone else's order, not delivered, an unknown id)
 * answers the same 403, so order ids cannot be probed. An edit keeps the operator's hiding.
 */
export async function saveFeedback(
  deps: { db: Database; config: Config },
  input: FeedbackInput,
): Promise<{ feedback: PublicFeedback; created: boolean }> {
  const now = input.now ?? new Date();
  await hitRateLimit(deps.db, FEEDBACK_RULE, input.userId, { now, scale: deps.config.rateLimitScale });
  const [line] = await deps.db
    .select({ id: orderProducts.id, title: products.title })
    .from(orderProducts)
    .innerJoin(orders, eq(orders.id, orderProducts.orderId))
    .innerJoin(products, eq(products.id, orderProducts.productId))
    .where(
      and(
        eq(orders.id, input.orderId),
        eq(orders.userId, input.userId),
        inArray(orders.status, [...PAID_ORDER_STATUSES]),
        eq(orderProducts.productId, input.productId),
        eq(orderProducts.optionId, input.productOptionId),
        // Spelled out: drizzle leaves table names off a single-table subquery's columns.
        sql`exists (select 1 from ${deliveredCredentials} where "delivered_credentials"."order_product_id" = "order_products"."id")`,
      ),
    )
    // A cart holds one line per option, so this is the line; a replacement line came later.
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id))
    .limit(1);
  if (!line) throw forbidden(FEEDBACK_MESSAGES.notReceived);

  // One statement, so two posts at once for the same line make one row (the unique order_product_id).
  const [row] = await deps.db
    .insert(feedback)
    .values({
      userId: input.userId,
      orderProductId: line.id,
      productId: input.productId,
      optionId: input.productOptionId,
      stars: input.stars,
      message: input.message,
      createdAt: now,
      updatedAt: now,
    })
    .onConflictDoUpdate({
      target: feedback.orderProductId,
      set: { stars: input.stars, message: input.message, updatedAt: now },
    })
    .returning({
      id: feedback.id,
      stars: feedback.stars,
      message: feedback.message,
      reply: feedback.reply,
      repliedAt: feedback.repliedAt,
      createdAt: feedback.createdAt,
      updatedAt: feedback.updatedAt,
      // xmax is 0 for a row this statement inserted, set for one it updated.
      created: sql<boolean>`(xmax = 0)`,
    });
  return {
    feedback: {
      _id: row.id,
      stars: row.stars,
      message: row.message,
      product: { _id: input.productId, title: line.title },
      reply: row.reply && row.repliedAt ? { message: row.reply, at: row.repliedAt.toISOString() } : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    },
    created: row.created,
  };
}

/** Visible feedback on active products, newest first, FEEDBACK_PAGE_SIZE a page; never the author. */
export async function listPublicFeedback(
  db: Executor,
  query: FeedbackListQuery,
): Promise<{ records: PublicFeedback[]; pager: Pager }> {
  const conditions: SQL[] = [eq(feedback.visible, true), eq(products.active, true)];
  if (query.productId) conditions.push(eq(feedback.productId, query.productId));
  const search = query.search.trim();
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(or(ilike(feedback.message, pattern), ilike(products.title, pattern))!);
  }
  const where = and(...conditions);
  const sortColumn = query.sortBy === "createdAt" ? feedback.createdAt : feedback.updatedAt;
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: feedback.id,
        stars: feedback.stars,
        message: feedback.message,
        productId: products.id,
        productTitle: products.title,
        reply: feedback.reply,
        repliedAt: feedback.repliedAt,
        createdAt: feedback.createdAt,
        updatedAt: feedback.updatedAt,
      })
      .from(feedback)
      .innerJoin(products, eq(products.id, feedback.productId))
      .$dynamic(),
    {
      counted: countRows(db).from(feedback).innerJoin(products, eq(products.id, feedback.productId)).$dynamic(),
      where,
      orderBy: [desc(sortColumn), desc(feedback.id)],
      page: query.page,
      pageSize: FEEDBACK_PAGE_SIZE,
    },
  );
  return {
    records: rows.map((row) => ({
      _id: row.id,
      stars: row.stars,
      message: row.message,
      product: { _id: row.productId, title: row.productTitle },
      reply: row.reply && row.repliedAt ? { message: row.reply, at: row.repliedAt.toISOString() } : null,
      createdAt: row.createdAt.toISOString(),
      updatedAt: row.updatedAt.toISOString(),
    })),
    pager,
  };
}

/** The customer's feedback on one of their orders, for the order page's forms; 404 for an order not theirs. */
export async function listOwnFeedbackForOrder(db: Executor, userId: string, orderId: string): Promise<OwnFeedback[]> {
  const [order] = await db
    .select({ id: orders.id })
    .from(orders)
    .where(and(eq(orders.id, orderId), eq(orders.userId, userId)));
  if (!order) throw notFound(FEEDBACK_MESSAGES.orderNotFound);
  const rows = await db
    .select({
      productId: orderProducts.productId,
      optionId: orderProducts.optionId,
      stars: feedback.stars,
      message: feedback.message,
      updatedAt: feedback.updatedAt,
      visible: feedback.visible,
    })
    .from(feedback)
    .innerJoin(orderProducts, eq(orderProducts.id, feedback.orderProductId))
    .where(and(eq(orderProducts.orderId, orderId), eq(feedback.userId, userId)))
    .orderBy(asc(orderProducts.createdAt));
  return rows.map((row) => ({
    product: row.productId,
    productOption: row.optionId,
    stars: row.stars,
    message: row.message,
    updatedAt: row.updatedAt.toISOString(),
    hidden: !row.visible,
  }));
}

export type ProductRating = { average: number; count: number };

/** Every product's visible feedback summed up in ONE grouped query, for the catalogue list. */
/** Every product's rating, or one product's (`productId`). */
export async function productRatings(db: Executor, productId?: string): Promise<Map<string, ProductRating>> {
  const rows = await db
    .select({ productId: feedback.productId, average: avg(feedback.stars), count: count() })
    .from(feedback)
    .where(and(eq(feedback.visible, true), productId === undefined ? undefined : eq(feedback.productId, productId)))
    .groupBy(feedback.productId);
  return new Map(
    rows.map((row) => [
      row.productId,
      { average: Math.round(Number(row.average) * 10) / 10, count: Number(row.count) },
    ]),
  );
}
