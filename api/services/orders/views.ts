import type { Order, RecentOrder } from "../../../contract/answers/order";
import { centsToUsd } from "../../../contract/money";
import { ORDERS_PAGE_SIZE, type OrderStatus, PAID_ORDER_STATUSES } from "../../../contract/order";
import { type SQL, and, asc, desc, eq, gte, ilike, inArray, isNull, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { deliveredCredentials, orderProducts, orders, stockCredentials } from "../../db/schema";
import { notFound } from "../../errors";
import { maskEmail, timeAgo } from "./presentation";
import { containsPattern, readPage, type Pager } from "../shared/paging";
import { idsOf } from "../shared/rows";
import { credentialColumns, revealCredential } from "../stock/secrets";

/* What customers read about orders: one order by id, their own list, the recent-purchases feed. */

export const ORDER_LOOKUP_MESSAGES = {
  notFound: "Order not found",
  invalidId: "Invalid order id",
} as const;

/** The dashboard hides pending orders older than this (spec section 4): unpaid ones only, never a paid one. */
export const PENDING_VISIBLE_MS = 48 * 60 * 60 * 1000;
type OrderRow = {
  id: string;
  status: OrderStatus;
  createdAt: Date;
  priceCents: number;
  paymentMethod: string;
};

const orderRowColumns = {
  id: orders.id,
  status: orders.status,
  createdAt: orders.createdAt,
  priceCents: orders.priceCents,
  paymentMethod: orders.paymentMethod,
};

/** Views of several orders in two more queries: their lines, and the credentials of the paid ones. */
async function orderViews(db: Executor, rows: OrderRow[]): Promise<Order[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(orderProducts)
    .where(inArray(orderProducts.orderId, idsOf(rows)))
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  // Credentials are shown only once an order is paid (spec section 4: not while pending), and never
  // those of a line refunded to the balance (ADR 028).
  const paidLineIds = lines
    .filter((line) => rows.find((row) => row.id === line.orderId)?.status !== "pending" && !line.refundedAt)
    .map((line) => line.id);
  const credentialRows =
    paidLineIds.length === 0
      ? []
      : await db
          .select({
            orderProductId: deliveredCredentials.orderProductId,
            ...credentialColumns,
            position: deliveredCredentials.position,
            expiresAt: deliveredCredentials.expiresAt,
          })
          .from(deliveredCredentials)
          .innerJoin(stockCredentials, eq(stockCredentials.id, deliveredCredentials.credentialId))
          .where(
            and(inArray(deliveredCredentials.orderProductId, paidLineIds), isNull(deliveredCredentials.replacedAt)),
          )
          .orderBy(asc(deliveredCredentials.position));
  return rows.map((row) => ({
    _id: row.id,
    status: row.status,
    createdAt: row.createdAt.toISOString(),
    price: centsToUsd(row.priceCents),
    paymentMethod: row.paymentMethod,
    products: lines
      .filter((line) => line.orderId === row.id)
      .map((line) => {
        const creds = credentialRows.filter((credential) => credential.orderProductId === line.id);
        const expiry = creds.reduce<Date | null>(
          (latest, credential) =>
            credential.expiresAt && (!latest || credential.expiresAt > latest) ? credential.expiresAt : latest,
          null,
        );
        return {
          product: line.productId,
          productOption: line.optionId,
          title: line.title,
          subtitle: line.subtitle,
          picture: line.picture,
          description: line.description,
          fullFillmode: line.fulfilMode,
          deliveryNotes: row.status === "pending" ? "" : line.deliveryNotes,
          creds: creds.map((sealed) => {
            const credential = revealCredential(sealed);
            return `${credential.username}:${credential.password}`;
          }),
          credIndexes: creds.map((credential) => credential.position),
          isReplacement: line.isReplacement,
          refunded: line.refundedAt !== null,
          price: centsToUsd(line.priceCents),
          quantity: line.quantity,
          duration: line.durationDays,
          expiry: expiry?.toISOString() ?? null,
        };
      }),
  }));
}

/** One order by its unguessable id: whoever has the id may see it (as /find-order needs). */
export async function readOrder(db: Executor, orderId: string): Promise<Order> {
  const [row] = await db.select(orderRowColumns).from(orders).where(eq(orders.id, orderId));
  if (!row) throw notFound(ORDER_LOOKUP_MESSAGES.notFound);
  const [view] = await orderViews(db, [row]);
  return view;
}

export type OrderListQuery = {
  page: number;
  search?: string;
  sortBy: "createdAt" | "updatedAt" | "price";
  status?: OrderStatus;
};

/** The customer's own orders, newest first, ORDERS_PAGE_SIZE per page; stale pending orders are hidden. */
export async function listCustomerOrders(
  db: Executor,
  userId: string,
  query: OrderListQuery,
  now = new Date(),
): Promise<{ records: Order[]; pager: Pager }> {
  const conditions: SQL[] = [
    eq(orders.userId, userId),
    or(ne(orders.status, "pending"), gte(orders.createdAt, new Date(now.getTime() - PENDING_VISIBLE_MS)))!,
  ];
  if (query.status) conditions.push(eq(orders.status, query.status));
  const search = query.search?.trim();
  if (search) {
    const pattern = containsPattern(search);
    conditions.push(
      or(
        eq(orders.id, search),
        sql`exists (select 1 from ${orderProducts} where ${orderProducts.orderId} = ${orders.id} and ${ilike(
          orderProducts.title,
          pattern,
        )})`,
      )!,
    );
  }
  const where = and(...conditions);
  const sortColumn =
    query.sortBy === "price" ? orders.priceCents : query.sortBy === "updatedAt" ? orders.updatedAt : orders.createdAt;
  const { pager, rows } = await readPage(db, db.select(orderRowColumns).from(orders).$dynamic(), {
    counted: orders,
    where,
    orderBy: [desc(sortColumn), desc(orders.id)],
    page: query.page,
    pageSize: ORDERS_PAGE_SIZE,
  });
  return {
    records: await orderViews(db, rows),
    pager,
  };
}

/** The latest real paid orders for the social-proof toast: masked email, first product, no ids or credentials. */
export async function recentOrders(db: Executor, now = new Date(), limit = 20): Promise<RecentOrder[]> {
  const rows = await db
    .select({ id: orders.id, email: orders.email, paidAt: orders.paidAt, createdAt: orders.createdAt })
    .from(orders)
    .where(and(inArray(orders.status, PAID_ORDER_STATUSES), eq(orders.source, "checkout")))
    .orderBy(desc(sql`coalesce(${orders.paidAt}, ${orders.createdAt})`))
    .limit(limit);
  if (rows.length === 0) return [];
  const lines = await db
    .select({ orderId: orderProducts.orderId, title: orderProducts.title, quantity: orderProducts.quantity })
    .from(orderProducts)
    .where(inArray(orderProducts.orderId, idsOf(rows)))
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  return rows.flatMap((row) => {
    const first = lines.find((line) => line.orderId === row.id);
    if (!first) return [];
    return [
      {
        email: maskEmail(row.email),
        productTitle: first.title,
        quantity: first.quantity,
        timeAgo: timeAgo(row.paidAt ?? row.createdAt, now),
      },
    ];
  });
}
