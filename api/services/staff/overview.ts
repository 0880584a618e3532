import { and, count, desc, eq, gte, inArray, isNotNull, sql } from "drizzle-orm";
import { PAID_ORDER_STATUSES } from "../../../contract/order";
import type { Overview, Waiting } from "../../../contract/answers/admin-staff";
import type { Executor } from "../../db/client";
import { availableStockOfOption, onSale } from "../catalogue/shop";
import { orderProducts, orders, productOptions, products, requests, tickets } from "../../db/schema";

/*
 * The back office's overview (issue 16): sales over three periods, orders per day for a month, the best
 * sellers, options under their low-stock threshold, and what waits for staff. A handful of aggregate
 * queries, each served by an index (orders_paid_idx for the periods and days).
 */

const DAY_MS = 24 * 60 * 60 * 1000;
export const OVERVIEW_DAYS = 30;
const TOP_PRODUCTS = 5;

/** What waits for staff: tickets whose last word is the customer's, pending requests, manual lines to deliver. */
export async function waitingForStaff(db: Executor): Promise<Waiting> {
  const [[ticketCount], [requestCount], [manualCount]] = await Promise.all([
    db
      .select({ value: count() })
      .from(tickets)
      .where(and(eq(tickets.status, "open"), eq(tickets.awaitingStaff, true))),
    db.select({ value: count() }).from(requests).where(eq(requests.status, "pending")),
    db.select({ value: count() }).from(orders).where(eq(orders.status, "processing")),
  ]);
  return {
    ticketsWaiting: Number(ticketCount.value),
    pendingRequests: Number(requestCount.value),
    manualDeliveries: Number(manualCount.value),
  };
}

const startOfUtcDay = (at: Date) => new Date(Date.UTC(at.getUTCFullYear(), at.getUTCMonth(), at.getUTCDate()));

export async function readOverview(db: Executor, now = new Date()): Promise<Overview> {
  const today = startOfUtcDay(now);
  const firstDay = new Date(today.getTime() - (OVERVIEW_DAYS - 1) * DAY_MS);
  const paidSince = (since: Date) =>
    and(inArray(orders.status, [...PAID_ORDER_STATUSES]), isNotNull(orders.paidAt), gte(orders.paidAt, since));
  const since7 = new Date(now.getTime() - 7 * DAY_MS);
  const since30 = new Date(now.getTime() - 30 * DAY_MS);
  const period = (since: Date) =>
    db
      .select({
        orders: count(),
        revenueCents: sql<number>`coalesce(sum(${orders.priceCents}), 0)`.mapWith(Number),
      })
      .from(orders)
      .where(paidSince(since));

  const dayOf = sql<string>`to_char(${orders.paidAt} at time zone 'UTC', 'YYYY-MM-DD')`;
  const [[dayPeriod], [weekPeriod], [monthPeriod], days, top, low, waiting] = await Promise.all([
    period(today),
    period(since7),
    period(since30),
    db
      .select({
        day: dayOf,
        orders: count(),
        revenueCents: sql<number>`coalesce(sum(${orders.priceCents}), 0)`.mapWith(Number),
      })
      .from(orders)
      .where(paidSince(firstDay))
      .groupBy(dayOf),
    db
      .select({
        _id: products.id,
        title: products.title,
        quantity: sql<number>`sum(${orderProducts.quantity})`.mapWith(Number),
        revenueCents: sql<number>`sum(${orderProducts.priceCents})`.mapWith(Number),
      })
      .from(orderProducts)
      .innerJoin(orders, eq(orders.id, orderProducts.orderId))
      .innerJoin(products, eq(products.id, orderProducts.productId))
      .where(and(paidSince(since30), eq(orderProducts.isReplacement, false)))
      .groupBy(products.id, products.title)
      .orderBy(desc(sql`sum(${orderProducts.priceCents})`), products.title)
      .limit(TOP_PRODUCTS),
    db
      .select({
        optionId: productOptions.id,
        product: products.title,
        option: productOptions.title,
        threshold: productOptions.lowStockThreshold,
        free: availableStockOfOption().mapWith(Number),
      })
      .from(productOptions)
      .innerJoin(products, eq(products.id, productOptions.productId))
      .where(
        and(
          onSale(),
          eq(products.fulfilMode, "auto"),
          sql`${productOptions.lowStockThreshold} > 0`,
          sql`${availableStockOfOption()} < ${productOptions.lowStockThreshold}`,
        ),
      )
      .orderBy(products.title, productOptions.title),
    waitingForStaff(db),
  ]);

  const byDay = new Map(days.map((row) => [row.day, row]));
  const perDay = Array.from({ length: OVERVIEW_DAYS }, (_, index) => {
    const day = new Date(firstDay.getTime() + index * DAY_MS).toISOString().slice(0, 10);
    const row = byDay.get(day);
    return { day, orders: row ? Number(row.orders) : 0, revenueCents: row?.revenueCents ?? 0 };
  });
  const asPeriod = (row: { orders: number; revenueCents: number }) => ({
    orders: Number(row.orders),
    revenueCents: row.revenueCents,
  });
  return {
    sales: { today: asPeriod(dayPeriod), last7Days: asPeriod(weekPeriod), last30Days: asPeriod(monthPeriod) },
    perDay,
    topProducts: top,
    lowStock: low,
    waiting,
  };
}
