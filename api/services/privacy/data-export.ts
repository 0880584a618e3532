import { and, asc, eq, gt, inArray, isNull } from "drizzle-orm";
import { centsToUsd } from "../../../contract/money";
import type { PersonalData, StaffCustomerData } from "../../../contract/answers/personal-data";
import type { Database, Executor } from "../../db/client";
import {
  balanceLedger,
  coupons,
  feedback,
  knownDevices,
  orderProducts,
  orders,
  requests,
  sessions,
  spins,
  ticketMessages,
  tickets,
  users,
} from "../../db/schema";
import { notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { idsOf } from "../shared/rows";
import { deliveredCredentialsOfLines } from "../orders/delivered-credentials";
import { revealCredential } from "../stock/secrets";

/*
 * A customer's own data, exported (issue 29, ADR 044): everything the store holds about the account for the
 * person, and the same without credentials' secrets for staff answering the person's request.
 */

const iso = (value: Date) => value.toISOString();
const isoOrNull = (value: Date | null) => value?.toISOString() ?? null;

/** Everything the store holds about the account, for the person (or staff answering their request). */
export async function exportPersonalData(
  db: Executor,
  userId: string,
  options: { currentSessionId?: string; now?: Date } = {},
): Promise<PersonalData> {
  const [account] = await db.select().from(users).where(eq(users.id, userId));
  if (!account || account.deletedAt) throw notFound("No customer has this id");

  const orderRows = await db
    .select({ order: orders, coupon: coupons.code })
    .from(orders)
    .leftJoin(coupons, eq(coupons.id, orders.couponId))
    .where(eq(orders.userId, userId))
    .orderBy(asc(orders.createdAt), asc(orders.id));
  const orderIds = orderRows.map((row) => row.order.id);
  const lines = orderIds.length
    ? await db
        .select()
        .from(orderProducts)
        .where(inArray(orderProducts.orderId, orderIds))
        .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id))
    : [];
  const credentials = await deliveredCredentialsOfLines(db, idsOf(lines));

  const ticketRows = await db
    .select()
    .from(tickets)
    .where(eq(tickets.userId, userId))
    .orderBy(asc(tickets.createdAt), asc(tickets.id));
  const messages = ticketRows.length
    ? await db
        .select()
        .from(ticketMessages)
        .where(inArray(ticketMessages.ticketId, idsOf(ticketRows)))
        .orderBy(asc(ticketMessages.createdAt), asc(ticketMessages.id))
    : [];

  const requestRows = await db
    .select()
    .from(requests)
    .where(eq(requests.userId, userId))
    .orderBy(asc(requests.createdAt), asc(requests.id));
  const feedbackRows = await db
    .select({ feedback, product: orderProducts.title })
    .from(feedback)
    .innerJoin(orderProducts, eq(orderProducts.id, feedback.orderProductId))
    .where(eq(feedback.userId, userId))
    .orderBy(asc(feedback.createdAt), asc(feedback.id));
  const ledgerRows = await db
    .select()
    .from(balanceLedger)
    .where(eq(balanceLedger.userId, userId))
    .orderBy(asc(balanceLedger.createdAt), asc(balanceLedger.id));
  const couponRows = await db
    .select()
    .from(coupons)
    .where(eq(coupons.userId, userId))
    .orderBy(asc(coupons.createdAt), asc(coupons.id));
  const spinRows = await db
    .select({ spin: spins, coupon: coupons.code })
    .from(spins)
    .innerJoin(coupons, eq(coupons.id, spins.couponId))
    .where(eq(spins.userId, userId))
    .orderBy(asc(spins.createdAt), asc(spins.id));
  const now = options.now ?? new Date();
  const sessionRows = await db
    .select()
    .from(sessions)
    .where(and(eq(sessions.userId, userId), isNull(sessions.revokedAt), gt(sessions.expiresAt, now)))
    .orderBy(asc(sessions.createdAt), asc(sessions.id));
  const deviceRows = await db
    .select()
    .from(knownDevices)
    .where(eq(knownDevices.userId, userId))
    .orderBy(asc(knownDevices.createdAt), asc(knownDevices.id));

  return {
    exportedAt: iso(now),
    profile: {
      _id: account.id,
      username: account.username,
      email: account.email,
      balance: centsToUsd(account.balanceCents),
      created: iso(account.createdAt),
    },
    orders: orderRows.map(({ order, coupon }) => ({
      _id: order.id,
      status: order.status,
      createdAt: iso(order.createdAt),
      paidAt: isoOrNull(order.paidAt),
      subtotal: centsToUsd(order.subtotalCents),
      discount: centsToUsd(order.discountCents),
      price: centsToUsd(order.priceCents),
      paymentMethod: order.paymentMethod,
      coupon,
      message: order.message,
      email: order.email,
      products: lines
        .filter((line) => line.orderId === order.id)
        .map((line) => ({
          _id: line.id,
          title: line.title,
          subtitle: line.subtitle,
          durationDays: line.durationDays,
          quantity: line.quantity,
          unitPrice: centsToUsd(line.unitPriceCents),
          price: centsToUsd(line.priceCents),
          refunded: centsToUsd(line.refundedCents),
          // A refunded line's credentials were withdrawn from the customer (ADR 028): the export does not hand them back.
          credentials: line.refundedAt
            ? []
            : credentials
                .filter((credential) => credential.orderProductId === line.id)
                .map((credential) => ({
                  ...revealCredential(credential),
                  deliveredAt: iso(credential.deliveredAt),
                  warrantyEndsAt: isoOrNull(credential.expiresAt),
                  replacedAt: isoOrNull(credential.replacedAt),
                })),
        })),
    })),
    tickets: ticketRows.map((ticket) => ({
      _id: ticket.id,
      orderId: ticket.orderId,
      subject: ticket.subject,
      status: ticket.status,
      createdAt: iso(ticket.createdAt),
      messages: messages
        .filter((message) => message.ticketId === ticket.id)
        .map((message) => ({
          from: message.fromStaff ? ("Admin" as const) : ("you" as const),
          message: message.message,
          timestamp: iso(message.createdAt),
        })),
    })),
    requests: requestRows.map((request) => ({
      _id: request.id,
      kind: request.kind,
      orderId: request.orderId,
      message: request.message,
      status: request.status,
      answer: request.answer,
      createdAt: iso(request.createdAt),
      resolvedAt: isoOrNull(request.resolvedAt),
    })),
    feedback: feedbackRows.map((row) => ({
      _id: row.feedback.id,
      product: row.product,
      stars: row.feedback.stars,
      message: row.feedback.message,
      reply: row.feedback.reply,
      createdAt: iso(row.feedback.createdAt),
    })),
    ledger: ledgerRows.map((entry) => ({
      _id: entry.id,
      type: entry.type,
      amount: centsToUsd(entry.type === "out" ? -entry.amountCents : entry.amountCents),
      balanceAfter: centsToUsd(entry.balanceAfterCents),
      note: entry.note,
      orderId: entry.orderId,
      createdAt: iso(entry.createdAt),
    })),
    coupons: couponRows.map((coupon) => ({
      code: coupon.code,
      kind: coupon.kind,
      amount: coupon.kind === "fixed" ? centsToUsd(coupon.amount) : coupon.amount,
      source: coupon.source,
      active: coupon.active,
      used: coupon.usedCount > 0,
      expiresAt: isoOrNull(coupon.expiresAt),
      createdAt: iso(coupon.createdAt),
    })),
    spins: spinRows.map(({ spin, coupon }) => ({
      discountPercent: spin.discountPercent,
      coupon,
      createdAt: iso(spin.createdAt),
    })),
    sessions: sessionRows.map((session) => ({
      createdAt: iso(session.createdAt),
      lastUsedAt: iso(session.lastUsedAt),
      expiresAt: iso(session.expiresAt),
      userAgent: session.userAgent,
      current: session.id === options.currentSessionId,
    })),
    devices: deviceRows.map((device) => ({ createdAt: iso(device.createdAt), lastUsedAt: iso(device.lastUsedAt) })),
  };
}

/**
 * Staff exporting a customer's data at the customer's request; audited by id, without the data. It holds no
 * credential's username or password (ADR 054): staff see those one order at a time, each view audited.
 */
export async function exportCustomerForStaff(
  db: Database,
  actor: StaffActor,
  userId: string,
  now = new Date(),
): Promise<StaffCustomerData> {
  return db.transaction(async (tx) => {
    const data = await exportPersonalData(tx, userId, { now });
    await recordAudit(tx, actor, {
      action: "customer.export",
      objectType: "user",
      objectId: userId,
      objectLabel: "",
    });
    return withoutCredentialSecrets(data);
  });
}

/** Each delivered credential as when it was delivered, its warranty and replacement: the fields named, no others. */
function withoutCredentialSecrets(data: PersonalData): StaffCustomerData {
  return {
    ...data,
    orders: data.orders.map((order) => ({
      ...order,
      products: order.products.map((line) => ({
        ...line,
        credentials: line.credentials.map(({ deliveredAt, warrantyEndsAt, replacedAt }) => ({
          deliveredAt,
          warrantyEndsAt,
          replacedAt,
        })),
      })),
    })),
  };
}
