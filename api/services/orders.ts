import { type SQL, and, asc, count, desc, eq, gt, gte, ilike, inArray, isNull, lt, ne, or, sql } from "drizzle-orm";
import type { Executor } from "../db/client";
import { newId } from "../db/ids";
import {
  deliveredCredentials,
  orderProducts,
  orders,
  payments,
  products,
  stockCredentials,
  users,
  warrantyDurations,
} from "../db/schema";
import { badRequest, conflict, notFound, tooManyRequests } from "../errors";
import { creditBalance, debitBalance } from "./balance";
import { evaluateCoupon, redeemCoupon, releaseCouponUse } from "./coupons";
import { centsToUsd } from "./money";
import { enqueueOrderConfirmation } from "./order-mail";
import { clearServerCart, readServerCart } from "./server-cart";
import { claimCredentials, deliverLine, releaseReservations } from "./stock";

/*
 * Order statuses:
 *  pending            created, stock reserved, waiting for a hosted payment (until expires_at)
 *  completed          paid; auto lines delivered (manual lines wait for the admin: "being processed")
 *  partiallyComplete  paid late, after part of the stock was gone: what remained was delivered and
 *                     the rest credited to the customer's balance
 *  expired            never paid within the reservation time; stock released
 *  cancelled          the payment failed or was cancelled, or the gateway could not open a checkout
 */
export type OrderStatus = "pending" | "completed" | "partiallyComplete" | "expired" | "cancelled";

export const RESERVATION_MS = 30 * 60 * 1000;
/** Unpaid orders one account / one address may hold, so nobody can lock up the shop's stock. */
export const PENDING_ORDERS_PER_USER = 3;
export const PENDING_ORDERS_PER_ADDRESS = 5;
/** The dashboard hides pending orders older than this (spec section 4). */
export const PENDING_VISIBLE_MS = 48 * 60 * 60 * 1000;
export const ORDERS_PAGE_SIZE = 10;

export const ORDER_MESSAGES = {
  emptyCart: "Your cart is empty",
  notFound: "Order not found",
  invalidId: "Invalid order id",
  tooManyPendingUser: `You already have ${PENDING_ORDERS_PER_USER} unpaid orders. Pay one of them or wait up to 30 minutes until they expire.`,
  tooManyPendingAddress:
    "Too many unpaid orders from your network. Please pay an open order or try again in 30 minutes.",
} as const;

export type OrderContext = { publicUrl: string };

export type CreatedOrder = {
  orderId: string;
  status: OrderStatus;
  /** Set when a hosted payment must still be collected. */
  payment?: { id: string; amountCents: number; email: string };
};

const soldOutMessage = (productTitle: string, optionTitle: string, left: number) =>
  left > 0
    ? `Sorry, only ${left} left of ${productTitle} — ${optionTitle}`
    : `Sorry, ${productTitle} — ${optionTitle} is sold out`;

async function assertReservationRoom(tx: Executor, userId: string, clientIp: string | null, now: Date) {
  const open = and(eq(orders.status, "pending"), gt(orders.expiresAt, now));
  const [mine] = await tx
    .select({ open: count() })
    .from(orders)
    .where(and(open, eq(orders.userId, userId)));
  if (Number(mine.open) >= PENDING_ORDERS_PER_USER) throw tooManyRequests(ORDER_MESSAGES.tooManyPendingUser);
  if (!clientIp || clientIp === "unknown") return;
  const [fromAddress] = await tx
    .select({ open: count() })
    .from(orders)
    .where(and(open, eq(orders.clientIp, clientIp)));
  if (Number(fromAddress.open) >= PENDING_ORDERS_PER_ADDRESS)
    throw tooManyRequests(ORDER_MESSAGES.tooManyPendingAddress);
}

/**
 * Turns the user's server cart into an order in ONE transaction: price it, count the coupon use,
 * reserve a credential for every unit of every auto-fulfilment line, and snapshot the lines. Any
 * failure (sold out, coupon used up, balance short) rolls all of it back. A balance (or free) order
 * is paid and delivered in the same transaction; a hosted one comes back with the payment to collect.
 */
export async function createOrder(
  db: Executor,
  ctx: OrderContext,
  input: {
    userId: string;
    coupon?: string;
    paymentMethod: string;
    message: string;
    clientIp: string | null;
    now?: Date;
  },
): Promise<CreatedOrder> {
  const now = input.now ?? new Date();
  const payByBalance = input.paymentMethod === "balance";
  return db.transaction(async (tx) => {
    // One checkout per customer at a time: a double-submitted form cannot make two orders of one cart.
    const [customer] = await tx
      .select({ id: users.id, email: users.email, autoCreated: users.autoCreated })
      .from(users)
      .where(eq(users.id, input.userId))
      .for("update");
    if (!customer) throw notFound("Account not found");
    if (!payByBalance) await assertReservationRoom(tx, customer.id, input.clientIp, now);

    const cart = await readServerCart(tx, customer.id);
    if (cart.cartItems.length === 0) throw badRequest(ORDER_MESSAGES.emptyCart);
    cart.cartItems.forEach((line, index) => {
      const asked = cart.stored[index].quantity;
      const { availableStock, title, product } = line.option;
      // The quote clamps to stock; buying fewer than asked without saying so would be wrong.
      if (line.soldOut || (asked > line.quantity && line.quantity === availableStock)) {
        throw conflict(soldOutMessage(product.title, title, line.soldOut ? availableStock : line.quantity));
      }
    });

    const details = await lineDetails(
      tx,
      cart.cartItems.map((line) => ({
        optionId: line.option._id,
        productId: line.option.product._id,
        duration: line.duration,
      })),
    );
    const lines = cart.cartItems.map((line, index) => ({ quote: line, ...details[index] }));
    const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quote.quantity, 0);

    const couponCode = input.coupon?.trim();
    const discount = couponCode
      ? await evaluateCoupon(
          tx,
          couponCode,
          lines.map((line) => ({ productId: line.productId, priceCents: line.unitPriceCents * line.quote.quantity })),
          customer.id,
          now,
        )
      : undefined;
    const priceCents = subtotalCents - (discount?.discountCents ?? 0);
    const expiresAt = new Date(now.getTime() + RESERVATION_MS);

    const orderId = newId();
    await tx.insert(orders).values({
      id: orderId,
      userId: customer.id,
      email: customer.email,
      status: "pending",
      subtotalCents,
      discountCents: discount?.discountCents ?? 0,
      priceCents,
      paymentMethod: input.paymentMethod,
      couponId: discount?.coupon.id,
      message: input.message,
      clientIp: input.clientIp,
      createdAt: now,
      updatedAt: now,
      expiresAt,
    });
    for (const line of lines) {
      const orderProductId = newId();
      await tx.insert(orderProducts).values({
        id: orderProductId,
        orderId,
        productId: line.productId,
        optionId: line.quote.option._id,
        title: line.quote.option.product.title,
        subtitle: line.subtitle,
        picture: line.quote.option.product.picture,
        description: line.description,
        deliveryNotes: line.deliveryNotes,
        fulfilMode: line.fulfilMode,
        durationDays: line.quote.duration,
        unitPriceCents: line.unitPriceCents,
        quantity: line.quote.quantity,
        priceCents: line.unitPriceCents * line.quote.quantity,
        createdAt: now,
      });
      if (line.fulfilMode === "manual") continue;
      const claimed = await claimCredentials(tx, {
        optionId: line.quote.option._id,
        orderProductId,
        quantity: line.quote.quantity,
        reservedUntil: expiresAt,
      });
      if (claimed.length < line.quote.quantity) {
        throw conflict(soldOutMessage(line.quote.option.product.title, line.quote.option.title, claimed.length));
      }
    }
    if (discount) await redeemCoupon(tx, discount.coupon, customer.id, orderId);

    if (payByBalance || priceCents === 0) {
      if (priceCents > 0) await debitBalance(tx, customer.id, priceCents, { orderId, note: `Order ${orderId}`, now });
      const status = await fulfilPaidOrder(tx, ctx, orderId, now);
      await clearServerCart(tx, customer.id);
      return { orderId, status };
    }
    const [payment] = await tx
      .insert(payments)
      .values({
        purpose: "order",
        orderId,
        userId: customer.id,
        gateway: input.paymentMethod,
        amountCents: priceCents,
        currency: "USD",
        createdAt: now,
      })
      .returning({ id: payments.id });
    return { orderId, status: "pending", payment: { id: payment.id, amountCents: priceCents, email: customer.email } };
  });
}

type LineDetail = {
  productId: string;
  unitPriceCents: number;
  subtitle: string;
  description: string;
  deliveryNotes: string;
  fulfilMode: "auto" | "manual";
};

/** What the quote does not carry and the order snapshot keeps: exact cents and the product's texts. */
async function lineDetails(
  tx: Executor,
  lines: { optionId: string; productId: string; duration: number }[],
): Promise<LineDetail[]> {
  const productRows = await tx
    .select({
      id: products.id,
      description: products.description,
      deliveryNotes: products.deliveryNotes,
      fulfilMode: products.fulfilMode,
    })
    .from(products)
    .where(inArray(products.id, [...new Set(lines.map((line) => line.productId))]));
  const durationRows = await tx
    .select({
      optionId: warrantyDurations.optionId,
      days: warrantyDurations.durationDays,
      title: warrantyDurations.title,
      priceCents: warrantyDurations.priceCents,
    })
    .from(warrantyDurations)
    .where(inArray(warrantyDurations.optionId, [...new Set(lines.map((line) => line.optionId))]));
  const productById = new Map(productRows.map((row) => [row.id, row]));
  return lines.map((line) => {
    const product = productById.get(line.productId)!;
    const duration = durationRows.find((row) => row.optionId === line.optionId && row.days === line.duration)!;
    return {
      productId: line.productId,
      unitPriceCents: duration.priceCents,
      subtitle: duration.title,
      description: product.description,
      deliveryNotes: product.deliveryNotes,
      fulfilMode: product.fulfilMode,
    };
  });
}

/**
 * Delivers a paid order: reserved credentials first, then (late payment) whatever is still in stock.
 * Units that cannot be delivered any more are credited to the customer's balance at the price paid
 * for them (after any discount), and the order becomes partiallyComplete. Queues the confirmation.
 */
export async function fulfilPaidOrder(
  tx: Executor,
  ctx: OrderContext,
  orderId: string,
  now: Date,
): Promise<OrderStatus> {
  const [order] = await tx.select().from(orders).where(eq(orders.id, orderId)).for("update");
  const lines = await tx
    .select()
    .from(orderProducts)
    .where(eq(orderProducts.orderId, orderId))
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  let undeliveredCents = 0;
  const mailLines = [];
  for (const line of lines) {
    const manual = line.fulfilMode === "manual";
    const delivered = manual ? 0 : await deliverLine(tx, line, now);
    if (!manual) undeliveredCents += (line.quantity - delivered) * line.unitPriceCents;
    mailLines.push({ title: line.title, subtitle: line.subtitle, quantity: line.quantity, delivered, manual });
  }
  const refundCents =
    undeliveredCents > 0 && order.subtotalCents > 0
      ? Math.min(order.priceCents, Math.round((undeliveredCents * order.priceCents) / order.subtotalCents))
      : 0;
  if (refundCents > 0 && order.userId) {
    await creditBalance(tx, order.userId, refundCents, "refund", {
      orderId,
      note: `Sold out after a late payment of order ${orderId}`,
      now,
    });
  }
  const status: OrderStatus = undeliveredCents > 0 ? "partiallyComplete" : "completed";
  await tx.update(orders).set({ status, paidAt: now, updatedAt: now }).where(eq(orders.id, orderId));

  const [owner] = order.userId
    ? await tx.select({ autoCreated: users.autoCreated }).from(users).where(eq(users.id, order.userId))
    : [];
  await enqueueOrderConfirmation(
    tx,
    {
      to: order.email,
      orderId,
      publicUrl: ctx.publicUrl,
      status,
      lines: mailLines,
      priceCents: order.priceCents,
      refundedCents: order.userId ? refundCents : 0,
      autoCreatedAccount: owner?.autoCreated ?? false,
    },
    now,
  );
  return status;
}

/**
 * Ends an unpaid order: its stock goes back on sale, its coupon use is given back, and its pending
 * payment is closed. The caller holds the order's row lock and has checked it is pending.
 */
export async function closeUnpaidOrder(
  tx: Executor,
  order: { id: string; couponId: string | null },
  status: "expired" | "cancelled",
  now: Date,
): Promise<void> {
  await tx.update(orders).set({ status, updatedAt: now }).where(eq(orders.id, order.id));
  const lines = await tx
    .select({ id: orderProducts.id })
    .from(orderProducts)
    .where(eq(orderProducts.orderId, order.id));
  await releaseReservations(
    tx,
    lines.map((line) => line.id),
  );
  await tx
    .update(payments)
    .set({ status: status === "expired" ? "expired" : "failed" })
    .where(and(eq(payments.orderId, order.id), eq(payments.status, "pending")));
  if (order.couponId) await releaseCouponUse(tx, order.couponId, order.id);
}

/** Cancels a pending order (its checkout could not be opened, or the customer cancelled the payment). */
export async function cancelUnpaidOrder(db: Executor, orderId: string, now = new Date()): Promise<boolean> {
  return db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, couponId: orders.couponId })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (order?.status !== "pending") return false;
    await closeUnpaidOrder(tx, order, "cancelled", now);
    return true;
  });
}

/**
 * Expires unpaid orders whose reservation ran out and releases their stock. SKIP LOCKED lets several
 * instances run this at once (each takes other orders), and never waits on an order that a webhook is
 * settling right now. Answers how many orders it expired.
 */
export const EXPIRY_BATCH_SIZE = 100;

export async function expireUnpaidOrders(
  db: Executor,
  now = new Date(),
  batchSize = EXPIRY_BATCH_SIZE,
): Promise<number> {
  return db.transaction(async (tx) => {
    const due = await tx
      .select({ id: orders.id, couponId: orders.couponId })
      .from(orders)
      .where(and(eq(orders.status, "pending"), lt(orders.expiresAt, now)))
      .orderBy(asc(orders.expiresAt))
      .limit(batchSize)
      .for("update", { skipLocked: true });
    for (const order of due) await closeUnpaidOrder(tx, order, "expired", now);
    return due.length;
  });
}

// ---------------------------------------------------------------- reading orders

export type OrderProductView = {
  product: string;
  productOption: string;
  title: string;
  subtitle: string;
  picture: string;
  description: string;
  fullFillmode: "auto" | "manual";
  deliveryNotes: string;
  creds: string[];
  isReplacement: boolean;
  price: number;
  quantity: number;
  duration: number;
  /** ISO time the warranty of the delivered credentials ends, or null before delivery. */
  expiry: string | null;
};

export type OrderView = {
  _id: string;
  status: OrderStatus;
  createdAt: string;
  price: number;
  paymentMethod: string;
  products: OrderProductView[];
};

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
async function orderViews(db: Executor, rows: OrderRow[]): Promise<OrderView[]> {
  if (rows.length === 0) return [];
  const lines = await db
    .select()
    .from(orderProducts)
    .where(
      inArray(
        orderProducts.orderId,
        rows.map((row) => row.id),
      ),
    )
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  // Credentials are shown only once an order is paid (spec section 4: not while pending).
  const paidLineIds = lines
    .filter((line) => rows.find((row) => row.id === line.orderId)?.status !== "pending")
    .map((line) => line.id);
  const credentialRows =
    paidLineIds.length === 0
      ? []
      : await db
          .select({
            orderProductId: deliveredCredentials.orderProductId,
            username: stockCredentials.username,
            password: stockCredentials.password,
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
          creds: creds.map((credential) => `${credential.username}:${credential.password}`),
          isReplacement: line.isReplacement,
          price: centsToUsd(line.priceCents),
          quantity: line.quantity,
          duration: line.durationDays,
          expiry: expiry?.toISOString() ?? null,
        };
      }),
  }));
}

/** One order by its unguessable id: whoever has the id may see it (as /find-order needs). */
export async function readOrder(db: Executor, orderId: string): Promise<OrderView> {
  const [row] = await db.select(orderRowColumns).from(orders).where(eq(orders.id, orderId));
  if (!row) throw notFound(ORDER_MESSAGES.notFound);
  const [view] = await orderViews(db, [row]);
  return view;
}

export type OrderListQuery = {
  page: number;
  search?: string;
  sortBy: "createdAt" | "updatedAt" | "price";
  status?: OrderStatus;
};

export type Pager = { page: number; previous: number | null; next: number | null; total: number; pages: number };

/** The customer's own orders, newest first, ORDERS_PAGE_SIZE per page; stale pending orders are hidden. */
export async function listCustomerOrders(
  db: Executor,
  userId: string,
  query: OrderListQuery,
  now = new Date(),
): Promise<{ records: OrderView[]; pager: Pager }> {
  const conditions: SQL[] = [
    eq(orders.userId, userId),
    or(ne(orders.status, "pending"), gte(orders.createdAt, new Date(now.getTime() - PENDING_VISIBLE_MS)))!,
  ];
  if (query.status) conditions.push(eq(orders.status, query.status));
  const search = query.search?.trim();
  if (search) {
    const pattern = `%${search.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
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
  const [{ total }] = await db.select({ total: count() }).from(orders).where(where);
  const sortColumn =
    query.sortBy === "price" ? orders.priceCents : query.sortBy === "updatedAt" ? orders.updatedAt : orders.createdAt;
  const rows = await db
    .select(orderRowColumns)
    .from(orders)
    .where(where)
    .orderBy(desc(sortColumn), desc(orders.id))
    .limit(ORDERS_PAGE_SIZE)
    .offset((query.page - 1) * ORDERS_PAGE_SIZE);
  const pages = Math.max(1, Math.ceil(Number(total) / ORDERS_PAGE_SIZE));
  return {
    records: await orderViews(db, rows),
    pager: {
      page: query.page,
      previous: query.page > 1 ? Math.min(query.page - 1, pages) : null,
      next: query.page < pages ? query.page + 1 : null,
      total: Number(total),
      pages,
    },
  };
}

/** "jonas@gmail.com" -> "jo***@g***.com": enough to feel real, not enough to identify anyone. */
export function maskEmail(email: string): string {
  const [local = "", domain = ""] = email.split("@");
  const dot = domain.lastIndexOf(".");
  const name = dot > 0 ? domain.slice(0, dot) : domain;
  const tld = dot > 0 ? domain.slice(dot) : "";
  return `${local.slice(0, 2)}***@${name.slice(0, 1)}***${tld}`;
}

export function timeAgo(then: Date, now: Date): string {
  const seconds = Math.max(0, Math.round((now.getTime() - then.getTime()) / 1000));
  const units: [number, string][] = [
    [86_400, "day"],
    [3_600, "hour"],
    [60, "minute"],
  ];
  for (const [size, name] of units) {
    const amount = Math.floor(seconds / size);
    if (amount >= 1) return `${amount} ${name}${amount === 1 ? "" : "s"} ago`;
  }
  return "just now";
}

export type RecentOrder = { email: string; productTitle: string; quantity: number; timeAgo: string };

/** The latest real paid orders for the social-proof toast: masked email, first product, no ids or credentials. */
export async function recentOrders(db: Executor, now = new Date(), limit = 20): Promise<RecentOrder[]> {
  const rows = await db
    .select({ id: orders.id, email: orders.email, paidAt: orders.paidAt, createdAt: orders.createdAt })
    .from(orders)
    .where(and(inArray(orders.status, ["completed", "partiallyComplete"]), eq(orders.source, "checkout")))
    .orderBy(desc(sql`coalesce(${orders.paidAt}, ${orders.createdAt})`))
    .limit(limit);
  if (rows.length === 0) return [];
  const lines = await db
    .select({ orderId: orderProducts.orderId, title: orderProducts.title, quantity: orderProducts.quantity })
    .from(orderProducts)
    .where(
      inArray(
        orderProducts.orderId,
        rows.map((row) => row.id),
      ),
    )
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
