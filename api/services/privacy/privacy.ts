import { randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { and, asc, eq, gt, inArray, isNull, notExists, sql } from "drizzle-orm";
import { centsToUsd } from "../../../contract/money";
import type { PersonalData, StaffCustomerData } from "../../../contract/answers/personal-data";
import type { DeletedAccount } from "../../../contract/answers/privacy";
import { DELETED_CUSTOMER, PRIVACY_MESSAGES } from "../../../contract/privacy";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import {
  balanceLedger,
  carts,
  coupons,
  deliveredCredentials,
  feedback,
  idempotencyKeys,
  knownDevices,
  mailOutbox,
  orderProducts,
  orders,
  passwordResets,
  recoveryCodes,
  requests,
  sessions,
  signInChallenges,
  spinAccounts,
  spins,
  stockCredentials,
  ticketMessages,
  tickets,
  users,
} from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import { outboxFolder } from "../../mail/transport";
import { type StaffActor, recordAudit } from "../staff/audit";
import { debitBalance } from "../payments/balance";
import { verifyPassword } from "../accounts/passwords";
import { RATE_RULES, hitRateLimit } from "../guards/rate-limit";
import { idsOf } from "../shared/rows";
import { credentialColumns, revealCredential } from "../stock/secrets";

/*
 * A customer's own data (issue 29, ADR 044): the export, and deleting the account. Deleting keeps the users row
 * as a tombstone (orders, the ledger and staff's records point at it) with no name, address or password; the
 * person's sessions, devices, codes, cart and unused prizes go; orders stay for the books without the address,
 * message or client address; feedback, ticket messages and requests stay, shown as from DELETED_CUSTOMER; a
 * remaining balance is forfeited with a ledger entry saying so. All in one transaction.
 */

const iso = (value: Date) => value.toISOString();
const isoOrNull = (value: Date | null) => value?.toISOString() ?? null;

const FORFEIT_NOTE = "Forfeited: account deleted";

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
  const lineIds = lines.map((line) => line.id);
  const credentials = lineIds.length
    ? await db
        .select({
          orderProductId: deliveredCredentials.orderProductId,
          ...credentialColumns,
          deliveredAt: deliveredCredentials.deliveredAt,
          expiresAt: deliveredCredentials.expiresAt,
          replacedAt: deliveredCredentials.replacedAt,
        })
        .from(deliveredCredentials)
        .innerJoin(stockCredentials, eq(stockCredentials.id, deliveredCredentials.credentialId))
        .where(inArray(deliveredCredentials.orderProductId, lineIds))
        .orderBy(asc(deliveredCredentials.position))
    : [];

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

/** The name and address a deleted account keeps: unique, and matching no one's sign-in or sign-up. */
function tombstone(): string {
  return `deleted-${randomBytes(12).toString("hex")}`;
}

type Deletion = { db: Database; config: Config; now?: Date };

/**
 * Removes the person behind `userId` from the store, in one transaction (ADR 044). The row is locked first, so
 * two deletions (or a deletion and a staff change) take turns; a sign-in that checked the password just before
 * gets a session no request accepts, as tokens of a deleted account are refused where they are resolved.
 */
async function eraseAccount(
  ctx: Deletion,
  userId: string,
  audit?: { actor: StaffActor; reason: string },
): Promise<DeletedAccount> {
  const now = ctx.now ?? new Date();
  const { result, mailIds } = await ctx.db.transaction(async (tx) => {
    const [account] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!account) throw notFound("No customer has this id");
    if (account.deletedAt) throw conflict(PRIVACY_MESSAGES.alreadyDeleted);
    if (account.role !== "customer") throw forbidden(PRIVACY_MESSAGES.staffAccount);

    const forfeitedCents = account.balanceCents;
    if (forfeitedCents > 0) await debitBalance(tx, userId, forfeitedCents, { note: FORFEIT_NOTE, now });

    const name = tombstone();
    await tx
      .update(users)
      .set({
        username: name,
        email: name,
        passwordHash: "",
        autoCreated: false,
        totpSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        blockReason: "",
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    // Revoked by removal: no token, device, code or challenge of the person is left to match.
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
    await tx.delete(carts).where(eq(carts.userId, userId));
    await tx.delete(spinAccounts).where(eq(spinAccounts.userId, userId));
    await tx.delete(spins).where(eq(spins.userId, userId));
    // Prizes never used go; one an order used stays, as the order names it.
    await tx
      .delete(coupons)
      .where(
        and(
          eq(coupons.userId, userId),
          notExists(tx.select({ id: orders.id }).from(orders).where(eq(orders.couponId, coupons.id))),
        ),
      );
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, `user:${userId}`));
    // The orders stay for the books, without the address, the message to staff or the client's address.
    await tx.update(orders).set({ email: "", message: "", clientIp: null }).where(eq(orders.userId, userId));
    // A guest ticket from the same address is the same person's.
    await tx.delete(tickets).where(sql`lower(${tickets.guestEmail}) = lower(${account.email})`);
    const mails = await tx
      .delete(mailOutbox)
      .where(sql`lower(${mailOutbox.to}) = lower(${account.email})`)
      .returning({ id: mailOutbox.id });
    await tx.execute(sql`select audit_log_forget(${userId}, array[${account.email}, ${account.username}]::text[])`);
    if (audit) {
      // Neither the name nor the address: the entry names the account by its id, and the reason staff gave.
      await recordAudit(tx, audit.actor, {
        action: "customer.delete",
        objectType: "user",
        objectId: userId,
        objectLabel: DELETED_CUSTOMER,
        after: { reason: audit.reason, forfeited: `$${centsToUsd(forfeitedCents).toFixed(2)}` },
      });
    }
    return {
      result: { _id: userId, deletedAt: iso(now), forfeited: centsToUsd(forfeitedCents) },
      mailIds: mails.map((mail) => mail.id),
    };
  });
  await removeMailFiles(ctx.config, mailIds);
  return result;
}

/** The .eml copies (no SMTP_URL) of the person's mails: named by time and the mail's id (api/mail/transport.ts). */
async function removeMailFiles(config: Config, mailIds: string[]): Promise<void> {
  if (mailIds.length === 0 || config.smtpUrl) return;
  const folder = outboxFolder(config);
  const names = await readdir(folder).catch(() => [] as string[]);
  const ids = new Set(mailIds);
  await Promise.all(
    names
      .filter((name) => ids.has(name.replace(/\.eml$/, "").slice(-22)))
      .map((name) => rm(path.join(folder, name), { force: true })),
  );
}

/** The customer's own deletion: the password, checked (and rate limited as any re-authentication), then erasure. */
export async function deleteOwnAccount(
  ctx: Deletion & { ip: string },
  user: { id: string; role: string },
  password: string,
): Promise<DeletedAccount> {
  if (user.role !== "customer") throw forbidden(PRIVACY_MESSAGES.staffAccount);
  await hitRateLimit(ctx.db, RATE_RULES.reauthPerAccount, user.id, {
    now: ctx.now,
    scale: ctx.config.rateLimitScale,
  });
  const [account] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, user.id), isNull(users.deletedAt)));
  if (!account || !(await verifyPassword(account.passwordHash, password))) {
    throw badRequest(PRIVACY_MESSAGES.wrongPassword, { password: [PRIVACY_MESSAGES.wrongPassword] });
  }
  return eraseAccount(ctx, user.id);
}

/** Staff deleting a customer at the customer's request: never their own account, never a staff account. */
export async function deleteCustomerForStaff(
  ctx: Deletion,
  actor: StaffActor,
  input: { userId: string; reason: string },
): Promise<DeletedAccount> {
  if (input.userId === actor.userId) throw forbidden(PRIVACY_MESSAGES.ownAccount);
  return eraseAccount(ctx, input.userId, { actor, reason: input.reason });
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
