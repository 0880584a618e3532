import { type SQL, and, asc, count, eq, gte, ilike, inArray, lt, sql, sum } from "drizzle-orm";
import { ADMIN_ORDERS_PAGE_SIZE } from "../../../contract/admin-orders";
import type { AdminOrder, AdminOrderPage, OrderCredentials } from "../../../contract/answers/admin-orders";
import { centsToUsd } from "../../../contract/money";
import { type OrderStatus, isPaidOrderStatus } from "../../../contract/order";
import type { Database, Executor } from "../../db/client";
import {
  balanceLedger,
  coupons,
  deliveredCredentials,
  mailOutbox,
  orderProducts,
  orders,
  payments,
  productOptions,
  users,
  webhookEvents,
} from "../../db/schema";
import { notFound } from "../../errors";
import { type StaffActor, auditOrder } from "../staff/audit";
import { type RefundLine, refundableByLine } from "./admin-refunds";
import { containsPattern, newestFirst, readPage } from "../shared/paging";
import { idsOf } from "../shared/rows";
import { revealCredential } from "../stock/secrets";
import { deliveredCredentialsOfLines } from "./delivered-credentials";

/*
 * The back office's orders, read side (ADR 028): the search, an order's page, and its delivered
 * credentials shown on demand (each viewing audited). The actions are in admin-actions.ts.
 */

export const ADMIN_ORDER_NOT_FOUND = "Order not found";
const DAY_MS = 24 * 60 * 60 * 1000;
/** Payments staff may confirm by hand: not paid yet, or given up on (a late payment is honoured). */
const PENDING_PAYMENT = new Set<string>(["pending", "failed", "expired"]);

export type AdminOrderQuery = {
  page: number;
  /** An order id: exact. */
  order: string;
  /** The start of the order's email, any letter case. */
  email: string;
  /** Part of a line's product title. */
  product: string;
  status?: OrderStatus;
  /** orders.payment_method, exact. */
  gateway: string;
  /** UTC days, inclusive: YYYY-MM-DD. */
  from: string;
  to: string;
  /** The customer's account id: exact. */
  customer: string;
  /** Only paid orders with a manual line still to deliver: status processing. */
  waiting: boolean;
};

export async function searchOrders(db: Executor, query: AdminOrderQuery): Promise<AdminOrderPage> {
  const filters: SQL[] = [];
  if (query.order) filters.push(eq(orders.id, query.order));
  if (query.customer) filters.push(eq(orders.userId, query.customer));
  if (query.email) {
    // containsPattern's escaping, anchored at the start so the text_pattern_ops index serves it.
    const prefix = `${containsPattern(query.email.toLowerCase()).slice(1)}`;
    filters.push(sql`lower(${orders.email}) like ${prefix}`);
  }
  if (query.product) {
    filters.push(
      sql`exists (select 1 from ${orderProducts} where ${orderProducts.orderId} = ${orders.id} and ${ilike(
        orderProducts.title,
        containsPattern(query.product),
      )})`,
    );
  }
  if (query.status) filters.push(eq(orders.status, query.status));
  if (query.gateway) filters.push(eq(orders.paymentMethod, query.gateway));
  if (query.from) filters.push(gte(orders.createdAt, new Date(`${query.from}T00:00:00Z`)));
  if (query.to) filters.push(lt(orders.createdAt, new Date(Date.parse(`${query.to}T00:00:00Z`) + DAY_MS)));
  if (query.waiting) filters.push(eq(orders.status, "processing"));
  const where = filters.length ? and(...filters) : undefined;
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: orders.id,
        createdAt: orders.createdAt,
        email: orders.email,
        status: orders.status,
        paymentMethod: orders.paymentMethod,
        priceCents: orders.priceCents,
      })
      .from(orders)
      .$dynamic(),
    { counted: orders, where, orderBy: newestFirst(orders), page: query.page, pageSize: ADMIN_ORDERS_PAGE_SIZE },
  );
  const lines =
    rows.length === 0
      ? []
      : await db
          .select({
            orderId: orderProducts.orderId,
            title: orderProducts.title,
            quantity: orderProducts.quantity,
            isReplacement: orderProducts.isReplacement,
          })
          .from(orderProducts)
          .where(inArray(orderProducts.orderId, idsOf(rows)))
          .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  return {
    records: rows.map((row) => {
      const own = lines.filter((line) => line.orderId === row.id && !line.isReplacement);
      return {
        _id: row.id,
        createdAt: row.createdAt.toISOString(),
        email: row.email,
        status: row.status,
        paymentMethod: row.paymentMethod,
        price: centsToUsd(row.priceCents),
        items: own.map((line) => `${line.quantity} × ${line.title}`).join(", "),
        waitingForDelivery: row.status === "processing",
      };
    }),
    pager,
  };
}

// ---------------------------------------------------------------- one order

/** The order's lines with what was delivered on each: the rows the page and the refund both need. */
export async function orderLinesWithDeliveries(db: Executor, orderId: string) {
  return db
    .select({
      line: orderProducts,
      option: productOptions.title,
      delivered:
        sql<number>`count(${deliveredCredentials.id}) filter (where ${deliveredCredentials.replacedAt} is null)`.mapWith(
          Number,
        ),
      deliveredRows: count(deliveredCredentials.id),
    })
    .from(orderProducts)
    .leftJoin(productOptions, eq(productOptions.id, orderProducts.optionId))
    .leftJoin(deliveredCredentials, eq(deliveredCredentials.orderProductId, orderProducts.id))
    .where(eq(orderProducts.orderId, orderId))
    .groupBy(orderProducts.id, productOptions.title)
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
}

/** Every refund credited for the order so far, late-payment credits included, in cents. */
export async function returnedToBalanceCents(db: Executor, orderId: string): Promise<number> {
  const [row] = await db
    .select({ total: sum(balanceLedger.amountCents).mapWith(Number) })
    .from(balanceLedger)
    .where(and(eq(balanceLedger.orderId, orderId), eq(balanceLedger.type, "refund")));
  return row?.total ?? 0;
}

export function refundLinesOf(rows: Awaited<ReturnType<typeof orderLinesWithDeliveries>>): RefundLine[] {
  return rows.map(({ line, deliveredRows }) => ({ ...line, deliveredRows: Number(deliveredRows) }));
}

/** Why an order cannot be refunded at all, or null. */
export function refundRefusal(order: { userId: string | null; status: string; priceCents: number }): string | null {
  if (!isPaidOrderStatus(order.status)) return ADMIN_ORDER_REFUSALS.refundNotPaid;
  if (order.userId === null) return ADMIN_ORDER_REFUSALS.refundNoAccount;
  if (order.priceCents === 0) return ADMIN_ORDER_REFUSALS.refundFree;
  return null;
}

export const ADMIN_ORDER_REFUSALS = {
  refundNotPaid: "Only a paid order can be refunded.",
  refundNoAccount:
    "This order has no customer account (a key redeemed without one), so there is no balance to refund to.",
  refundFree: "Nothing was paid for this order (a redeemed key or a free order), so there is nothing to refund.",
} as const;

export async function readAdminOrder(db: Executor, orderId: string): Promise<AdminOrder> {
  const [order] = await db.select().from(orders).where(eq(orders.id, orderId));
  if (!order) throw notFound(ADMIN_ORDER_NOT_FOUND);
  const [lineRows, returned, paymentRows, ledgerRows, mailRows, [customer], [coupon], [pendingMail]] =
    await Promise.all([
      orderLinesWithDeliveries(db, orderId),
      returnedToBalanceCents(db, orderId),
      db
        .select({ payment: payments, confirmedBy: users.email })
        .from(payments)
        .leftJoin(users, eq(users.id, payments.confirmedByUserId))
        .where(eq(payments.orderId, orderId))
        .orderBy(asc(payments.createdAt), asc(payments.id)),
      db
        .select({ entry: balanceLedger, staff: users.email })
        .from(balanceLedger)
        .leftJoin(users, eq(users.id, balanceLedger.staffUserId))
        .where(eq(balanceLedger.orderId, orderId))
        .orderBy(asc(balanceLedger.createdAt), asc(balanceLedger.id)),
      db
        .select()
        .from(mailOutbox)
        .where(eq(mailOutbox.orderId, orderId))
        .orderBy(asc(mailOutbox.createdAt), asc(mailOutbox.id)),
      order.userId
        ? db
            .select({ id: users.id, email: users.email, username: users.username, balanceCents: users.balanceCents })
            .from(users)
            .where(eq(users.id, order.userId))
        : Promise.resolve([]),
      order.couponId
        ? db.select({ id: coupons.id, code: coupons.code }).from(coupons).where(eq(coupons.id, order.couponId))
        : Promise.resolve([]),
      db
        .select({ id: mailOutbox.id })
        .from(mailOutbox)
        .where(and(eq(mailOutbox.orderId, orderId), eq(mailOutbox.status, "pending")))
        .limit(1),
    ]);
  const paymentIds = paymentRows.map((row) => row.payment.id);
  const events =
    paymentIds.length === 0
      ? []
      : await db
          .select()
          .from(webhookEvents)
          .where(inArray(webhookEvents.paymentId, paymentIds))
          .orderBy(asc(webhookEvents.receivedAt));
  const paid = isPaidOrderStatus(order.status);
  const refusal = refundRefusal(order);
  const refundable = refundableByLine(order, refundLinesOf(lineRows), returned);
  return {
    _id: order.id,
    status: order.status,
    source: order.source,
    email: order.email,
    createdAt: order.createdAt.toISOString(),
    updatedAt: order.updatedAt.toISOString(),
    paidAt: order.paidAt?.toISOString() ?? null,
    expiresAt: order.expiresAt?.toISOString() ?? null,
    paymentMethod: order.paymentMethod,
    subtotal: centsToUsd(order.subtotalCents),
    discount: centsToUsd(order.discountCents),
    price: centsToUsd(order.priceCents),
    currency: order.currency,
    coupon: coupon ? { _id: coupon.id, code: coupon.code } : null,
    message: order.message,
    clientIp: order.clientIp,
    customer: customer
      ? {
          _id: customer.id,
          email: customer.email,
          username: customer.username,
          balance: centsToUsd(customer.balanceCents),
        }
      : null,
    lines: lineRows.map(({ line, option, delivered, deliveredRows }) => ({
      _id: line.id,
      productId: line.productId,
      optionId: line.optionId,
      title: line.title,
      option: option ?? "",
      subtitle: line.subtitle,
      duration: line.durationDays,
      quantity: line.quantity,
      unitPrice: centsToUsd(line.unitPriceCents),
      price: centsToUsd(line.priceCents),
      fulfilMode: line.fulfilMode,
      isReplacement: line.isReplacement,
      delivered,
      deliveredEver: Number(deliveredRows),
      toDeliver:
        paid && line.fulfilMode === "manual" && !line.refundedAt
          ? Math.max(0, line.quantity - Number(deliveredRows))
          : 0,
      refundedAt: line.refundedAt?.toISOString() ?? null,
      refunded: centsToUsd(line.refundedCents),
      refundable: refusal ? 0 : centsToUsd(refundable.get(line.id) ?? 0),
    })),
    payments: paymentRows.map(({ payment, confirmedBy }) => ({
      _id: payment.id,
      gateway: payment.gateway,
      status: payment.status,
      amount: centsToUsd(payment.amountCents),
      currency: payment.currency,
      providerReference: payment.providerReference,
      createdAt: payment.createdAt.toISOString(),
      paidAt: payment.paidAt?.toISOString() ?? null,
      confirmedBy,
      confirmationReason: payment.confirmationReason,
      confirmable: !paid && PENDING_PAYMENT.has(payment.status),
      events: events
        .filter((event) => event.paymentId === payment.id)
        .map((event) => ({
          gateway: event.gateway,
          eventId: event.eventId,
          receivedAt: event.receivedAt.toISOString(),
        })),
    })),
    ledger: ledgerRows.map(({ entry, staff }) => ({
      _id: entry.id,
      createdAt: entry.createdAt.toISOString(),
      type: entry.type,
      amount: centsToUsd(entry.amountCents),
      balanceAfter: centsToUsd(entry.balanceAfterCents),
      note: entry.note,
      staff,
    })),
    mails: mailRows.map((mail) => ({
      _id: mail.id,
      to: mail.to,
      subject: mail.subject,
      status: mail.status,
      attempts: mail.attempts,
      createdAt: mail.createdAt.toISOString(),
      sentAt: mail.sentAt?.toISOString() ?? null,
    })),
    can: {
      cancel: order.status === "pending",
      resendMail: paid && !pendingMail,
      refund: refusal === null && [...refundable.values()].some((cents) => cents > 0),
      refundReason: refusal,
    },
  };
}

// ---------------------------------------------------------------- credentials on demand

/**
 * Every credential delivered on the order, replaced and withdrawn ones included, for staff who asked to
 * see them. Each viewing is written to the audit log (who, which order, how many), never the credentials.
 */
export async function viewOrderCredentials(
  db: Database,
  actor: StaffActor,
  orderId: string,
): Promise<OrderCredentials> {
  return db.transaction(async (tx) => {
    const [order] = await tx.select({ id: orders.id, email: orders.email }).from(orders).where(eq(orders.id, orderId));
    if (!order) throw notFound(ADMIN_ORDER_NOT_FOUND);
    const lines = await tx
      .select()
      .from(orderProducts)
      .where(eq(orderProducts.orderId, orderId))
      .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
    const rows = await deliveredCredentialsOfLines(tx, idsOf(lines));
    await auditOrder(tx, actor, order, "order.credentials.view", {
      after: { credentialsShown: rows.length },
    });
    return lines.map((line) => ({
      lineId: line.id,
      title: line.title,
      isReplacement: line.isReplacement,
      refunded: line.refundedAt !== null,
      credentials: rows
        .filter((row) => row.orderProductId === line.id)
        .map((row) => ({
          position: row.position,
          ...revealCredential(row),
          deliveredAt: row.deliveredAt.toISOString(),
          warrantyEnds: row.expiresAt?.toISOString() ?? null,
          replacedAt: row.replacedAt?.toISOString() ?? null,
        })),
    }));
  });
}
