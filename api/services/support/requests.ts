import { and, asc, desc, eq, inArray, isNull, max } from "drizzle-orm";
import { isPaidOrderStatus } from "../../../contract/order";
import { OPEN_OTHER_REQUESTS_PER_LINE } from "../../../contract/request";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import {
  deliveredCredentials,
  orderProducts,
  orders,
  productOptions,
  products,
  requests,
  stockCredentials,
  users,
} from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { enqueueMail } from "../../mail/outbox";
import { requestResolvedMail } from "../../mail/templates";
import { type StaffActor, recordAudit } from "../staff/audit";
import { assertHuman } from "../guards/human-check";
import { type NotifyDeps, notifyOperator } from "../notifications/operator-notices";
import { type RateRule, hitRateLimit } from "../guards/rate-limit";
import { claimCredentials, resellReplacedSeat } from "../stock/claims";
import { recheckStockLevels } from "../stock/levels";
import type { OrderRequest } from "../../../contract/answers/request";
import { idsOf } from "../shared/rows";
import { credentialColumns, revealCredential, sealedColumns } from "../stock/secrets";

/*
 * Warranty replacements and other requests on an order line (ADR 020). A request names a line by
 * (order, product, option) and a credential by its index: the delivered credential's position, which
 * never changes (a replacement gets the next free one), so a repeated or stale request can never hit
 * another credential. Every change to an order's requests and replacements first locks the order row,
 * so they take turns per order; the stock claim is checkout's (claimCredentials).
 */

export const REQUEST_MESSAGES = {
  orderNotFound: "Order not found",
  notYourOrder:
    "This order belongs to another account. Sign in with the account that placed it to make a request about it.",
  productNotInOrder: "This product is not part of the order",
  notDelivered: "This order has no delivered credentials yet",
  credentialNotFound: "This product of the order has no credential with that number",
  alreadyReplaced: "This credential was already replaced. Its replacement is shown on the order.",
  refunded: "This product was refunded to your balance, so its credentials can no longer be replaced.",
  alreadyRequested:
    "A replacement for this credential is already requested. We deliver it on this order as soon as it is ready.",
  tooManyOpen: `You have ${OPEN_OTHER_REQUESTS_PER_LINE} open requests on this product. Please wait for our answer.`,
  requestNotFound: "Request not found",
  noStock: "There is no stock for this option. Paste a credential or wait for stock.",
  notReplacement: "This is not a replacement request: answer it instead",
  notOther: "A replacement request is completed with a credential, not answered",
  badCredential: "Paste one credential as username:password",
  reasonRequired: "Please give the customer a reason",
  answerRequired: "Please write an answer",
  replaced: "Your replacement is ready: the new credentials are on the order.",
  requested: "Replacement requested. We deliver it on this order as soon as it is ready and email you.",
  sent: "Request sent. We answer within 24 hours.",
} as const;

const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
export const warrantyEndedMessage = (end: Date | null) =>
  end
    ? `The warranty of this credential ended on ${dateFormat.format(end)}. It can no longer be replaced.`
    : "This credential has no warranty.";
export const limitReachedMessage = (limit: number) =>
  `This credential was already replaced ${limit} time${limit === 1 ? "" : "s"}, the most we replace one. Please contact support.`;

/** Per account: replacements are costly stock, other requests cost staff time. */
export const REPLACEMENT_RULE: RateRule = { name: "replacement:account", limit: 10, windowMs: 60 * 60_000 };
export const OTHER_REQUEST_RULE: RateRule = { name: "request:account", limit: 10, windowMs: 60 * 60_000 };

export type RequestDeps = { db: Database; config: Config; logger?: Logger };

export type RequestView = OrderRequest;

type LineKey = { orderId: string; productId: string; productOptionId: string };
type RequestRow = typeof requests.$inferSelect;
type LineRow = typeof orderProducts.$inferSelect;

async function requestViews(db: Executor, rows: RequestRow[]): Promise<RequestView[]> {
  const credentialIds = rows.flatMap((row) => (row.replacementCredentialId ? [row.replacementCredentialId] : []));
  const credentials =
    credentialIds.length === 0
      ? []
      : await db
          .select({ id: stockCredentials.id, ...credentialColumns })
          .from(stockCredentials)
          // A replacement on a line refunded since is withdrawn from the customer's view too (ADR 028).
          .innerJoin(orderProducts, eq(orderProducts.id, stockCredentials.orderProductId))
          .where(and(inArray(stockCredentials.id, credentialIds), isNull(orderProducts.refundedAt)));
  return rows.map((row) => {
    const sealed = credentials.find((candidate) => candidate.id === row.replacementCredentialId);
    const credential = sealed && revealCredential(sealed);
    return {
      _id: row.id,
      kind: row.kind,
      index: row.credentialIndex,
      status: row.status,
      createdAt: row.createdAt.toISOString(),
      resolvedAt: row.resolvedAt?.toISOString() ?? null,
      message: row.message,
      creds: row.status === "completed" && credential ? [`${credential.username}:${credential.password}`] : [],
      reason: row.status === "rejected" ? row.answer : null,
      answer: row.kind === "other" && row.status === "completed" ? row.answer : null,
    };
  });
}

/** The customer's order; `lock` makes the caller's changes on this order take turns. */
async function ownOrder(tx: Executor, userId: string, orderId: string, lock: boolean) {
  const query = tx
    .select({ id: orders.id, userId: orders.userId, status: orders.status })
    .from(orders)
    .where(eq(orders.id, orderId));
  const [order] = lock ? await query.for("update") : await query;
  if (!order) throw notFound(REQUEST_MESSAGES.orderNotFound);
  if (order.userId !== userId) throw forbidden(REQUEST_MESSAGES.notYourOrder);
  return order;
}

/** The order's lines of that product and option: the one bought, then its replacement lines. */
async function linesOf(tx: Executor, key: LineKey): Promise<LineRow[]> {
  const lines = await tx
    .select()
    .from(orderProducts)
    .where(
      and(
        eq(orderProducts.orderId, key.orderId),
        eq(orderProducts.productId, key.productId),
        eq(orderProducts.optionId, key.productOptionId),
      ),
    )
    .orderBy(asc(orderProducts.createdAt), asc(orderProducts.id));
  if (lines.length === 0) throw notFound(REQUEST_MESSAGES.productNotInOrder);
  return lines;
}

/** The request history of an order line (its replacement lines included), newest first; the owner's only. */
export async function listRequests(db: Executor, userId: string, key: LineKey): Promise<RequestView[]> {
  await ownOrder(db, userId, key.orderId, false);
  const lines = await linesOf(db, key);
  const rows = await db
    .select()
    .from(requests)
    .where(inArray(requests.orderProductId, idsOf(lines)))
    .orderBy(desc(requests.createdAt), desc(requests.id));
  return requestViews(db, rows);
}

type ReplacementInput = LineKey & {
  userId: string;
  index: number;
  message: string;
  humanCheck: string | undefined;
  ip?: string;
  now?: Date;
};

/**
 * A warranty replacement of one delivered credential. With stock and the product's automatic
 * replacement on, the new credential is delivered in the same transaction; otherwise the request
 * waits for staff (or for stock: fillWaitingReplacements).
 */
export async function createReplacement(
  deps: RequestDeps,
  input: ReplacementInput,
): Promise<{ request: RequestView; message: string }> {
  const now = input.now ?? new Date();
  await hitRateLimit(deps.db, REPLACEMENT_RULE, input.userId, { scale: deps.config.rateLimitScale, now });
  await assertHuman(deps, input.humanCheck, { ip: input.ip, now });
  return deps.db.transaction(async (tx) => {
    const order = await ownOrder(tx, input.userId, input.orderId, true);
    const lines = await linesOf(tx, input);
    if (!isPaidOrderStatus(order.status)) throw conflict(REQUEST_MESSAGES.notDelivered);
    const [target] = await tx
      .select()
      .from(deliveredCredentials)
      .where(
        and(inArray(deliveredCredentials.orderProductId, idsOf(lines)), eq(deliveredCredentials.position, input.index)),
      );
    if (!target) throw notFound(REQUEST_MESSAGES.credentialNotFound);
    if (lines.find((line) => line.id === target.orderProductId)?.refundedAt) {
      throw conflict(REQUEST_MESSAGES.refunded);
    }
    if (target.replacedAt) throw conflict(REQUEST_MESSAGES.alreadyReplaced);
    if (!target.expiresAt || target.expiresAt <= now) throw conflict(warrantyEndedMessage(target.expiresAt));
    const [open] = await tx
      .select({ id: requests.id })
      .from(requests)
      .where(and(eq(requests.deliveredCredentialId, target.id), eq(requests.status, "pending")));
    if (open) throw conflict(REQUEST_MESSAGES.alreadyRequested);
    const [product] = await tx
      .select({ autoReplace: products.autoReplace, replacementLimit: products.replacementLimit })
      .from(products)
      .where(eq(products.id, input.productId));
    if (target.replacementCount >= product.replacementLimit) {
      throw conflict(limitReachedMessage(product.replacementLimit));
    }
    const [request] = await tx
      .insert(requests)
      .values({
        kind: "replacement",
        userId: input.userId,
        orderId: input.orderId,
        orderProductId: target.orderProductId,
        credentialIndex: input.index,
        deliveredCredentialId: target.id,
        message: input.message,
        createdAt: now,
      })
      .returning();
    const filled = product.autoReplace ? await fillFromStock(tx, deps.config, request, null, now) : null;
    await notifyRequestCreated(
      tx,
      deps.config,
      { request, kind: "replacement", status: filled ? "completed" : "pending", product: lines[0].title },
      now,
    );
    if (filled) return { request: filled, message: REQUEST_MESSAGES.replaced };
    return { request: (await requestViews(tx, [request]))[0], message: REQUEST_MESSAGES.requested };
  });
}

/** Tells the operator of a new request, in the transaction that makes it. */
async function notifyRequestCreated(
  tx: Executor,
  config: NotifyDeps,
  created: {
    request: { id: string; orderId: string };
    kind: "replacement" | "other";
    status: "pending" | "completed";
    product: string;
  },
  now: Date,
) {
  const { request, kind, status, product } = created;
  await notifyOperator(
    tx,
    config,
    {
      event: "request.created",
      key: request.id,
      data: { requestId: request.id, kind, status, orderId: request.orderId, product },
    },
    now,
  );
}

/** Any other request about an order line (a question about the account, say): pending until staff answer. */
export async function createOtherRequest(
  deps: RequestDeps,
  input: LineKey & { userId: string; message: string; now?: Date },
): Promise<RequestView> {
  const now = input.now ?? new Date();
  await hitRateLimit(deps.db, OTHER_REQUEST_RULE, input.userId, { scale: deps.config.rateLimitScale, now });
  return deps.db.transaction(async (tx) => {
    await ownOrder(tx, input.userId, input.orderId, true);
    const lines = await linesOf(tx, input);
    const open = await tx
      .select({ id: requests.id })
      .from(requests)
      .where(
        and(inArray(requests.orderProductId, idsOf(lines)), eq(requests.kind, "other"), eq(requests.status, "pending")),
      );
    if (open.length >= OPEN_OTHER_REQUESTS_PER_LINE) throw conflict(REQUEST_MESSAGES.tooManyOpen);
    const [request] = await tx
      .insert(requests)
      .values({
        kind: "other",
        userId: input.userId,
        orderId: input.orderId,
        orderProductId: lines[0].id,
        message: input.message,
        createdAt: now,
      })
      .returning();
    await notifyRequestCreated(
      tx,
      deps.config,
      { request, kind: "other", status: "pending", product: lines[0].title },
      now,
    );
    return (await requestViews(tx, [request]))[0];
  });
}

/**
 * Claims one credential of the option and delivers it for a pending replacement request; null when
 * the option has no stock (nothing is changed then). Never a seat of the account being replaced: that
 * account just failed the buyer (ADR 025). The caller holds the order's lock.
 */
async function fillFromStock(
  tx: Executor,
  config: NotifyDeps,
  request: RequestRow,
  staffUserId: string | null,
  now: Date,
): Promise<RequestView | null> {
  const [line] = await tx.select().from(orderProducts).where(eq(orderProducts.id, request.orderProductId));
  const lineId = newId();
  const [replaced] = await tx
    .select({ credentialId: deliveredCredentials.credentialId })
    .from(deliveredCredentials)
    .where(eq(deliveredCredentials.id, request.deliveredCredentialId!));
  const [credentialId] = await claimCredentials(tx, {
    optionId: line.optionId,
    orderProductId: lineId,
    quantity: 1,
    reservedUntil: null,
    excludeAccountsOf: [replaced.credentialId],
  });
  if (!credentialId) return null;
  const delivered = await deliverReplacement(tx, config, { request, line, lineId, credentialId, staffUserId, now });
  await recheckStockLevels(tx, config, [line.optionId], now);
  return delivered;
}

/**
 * Delivers `credentialId` (already held for `lineId`) as a replacement line of the order: quantity 1,
 * free, the same product texts, and the replaced credential's warranty end, so replacing never extends
 * a warranty. The old credential is marked replaced and the customer is mailed; the old seat of a shared
 * account goes back on sale as a new row, a private account is never sold again (ADR 025).
 */
async function deliverReplacement(
  tx: Executor,
  config: Pick<Config, "publicUrl">,
  input: {
    request: RequestRow;
    line: LineRow;
    lineId: string;
    credentialId: string;
    staffUserId: string | null;
    now: Date;
  },
): Promise<RequestView> {
  const { request, line, now } = input;
  const [old] = await tx
    .select()
    .from(deliveredCredentials)
    .where(eq(deliveredCredentials.id, request.deliveredCredentialId!));
  // Indexes count across the order's lines of this option, so the new credential takes the next free one.
  const [{ last }] = await tx
    .select({ last: max(deliveredCredentials.position) })
    .from(deliveredCredentials)
    .innerJoin(orderProducts, eq(orderProducts.id, deliveredCredentials.orderProductId))
    .where(and(eq(orderProducts.orderId, line.orderId), eq(orderProducts.optionId, line.optionId)));
  await tx.insert(orderProducts).values({
    id: input.lineId,
    orderId: line.orderId,
    productId: line.productId,
    optionId: line.optionId,
    title: line.title,
    subtitle: line.subtitle,
    picture: line.picture,
    description: line.description,
    deliveryNotes: line.deliveryNotes,
    fulfilMode: line.fulfilMode,
    durationDays: line.durationDays,
    unitPriceCents: 0,
    quantity: 1,
    priceCents: 0,
    isReplacement: true,
    createdAt: now,
  });
  await tx.insert(deliveredCredentials).values({
    orderProductId: input.lineId,
    credentialId: input.credentialId,
    position: (last ?? -1) + 1,
    deliveredAt: now,
    expiresAt: old.expiresAt,
    replacementCount: old.replacementCount + 1,
  });
  await tx
    .update(stockCredentials)
    .set({ status: "delivered", orderProductId: input.lineId, reservedUntil: null, deliveredAt: now })
    .where(eq(stockCredentials.id, input.credentialId));
  await tx.update(deliveredCredentials).set({ replacedAt: now }).where(eq(deliveredCredentials.id, old.id));
  await tx.update(stockCredentials).set({ status: "replaced" }).where(eq(stockCredentials.id, old.credentialId));
  await resellReplacedSeat(tx, old.credentialId, now);
  const [completed] = await tx
    .update(requests)
    .set({
      status: "completed",
      replacementCredentialId: input.credentialId,
      resolvedAt: now,
      resolvedBy: input.staffUserId,
    })
    .where(eq(requests.id, request.id))
    .returning();
  await tx.update(orders).set({ updatedAt: now }).where(eq(orders.id, line.orderId));
  await mailOutcome(tx, config, completed, line.title, now);
  return (await requestViews(tx, [completed]))[0];
}

async function mailOutcome(
  tx: Executor,
  config: Pick<Config, "publicUrl">,
  request: RequestRow,
  productTitle: string,
  now: Date,
): Promise<void> {
  // The request's foreign key cascades, so its customer exists.
  const [owner] = await tx.select({ email: users.email }).from(users).where(eq(users.id, request.userId));
  const mail = requestResolvedMail({
    to: owner.email,
    orderId: request.orderId,
    productTitle,
    kind: request.kind,
    outcome: request.status === "rejected" ? "rejected" : "completed",
    publicUrl: config.publicUrl,
  });
  await enqueueMail(tx, mail, now);
}

/** A pending request, locked after its order (the order every path locks in, so none deadlock). */
async function pendingRequestForUpdate(tx: Executor, requestId: string): Promise<RequestRow> {
  const [found] = await tx.select({ orderId: requests.orderId }).from(requests).where(eq(requests.id, requestId));
  if (!found) throw notFound(REQUEST_MESSAGES.requestNotFound);
  await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, found.orderId)).for("update");
  const [request] = await tx.select().from(requests).where(eq(requests.id, requestId)).for("update");
  if (request.status !== "pending") throw conflict(`This request is already ${request.status}`);
  return request;
}

/** "username:password" (the password may hold colons); both parts required. */
function parseCredential(text: string): { username: string; password: string } {
  const colon = text.indexOf(":");
  const username = colon === -1 ? "" : text.slice(0, colon).trim();
  const password = colon === -1 ? "" : text.slice(colon + 1).trim();
  if (!username || !password || /[\r\n]/.test(text.trim())) {
    throw badRequest(REQUEST_MESSAGES.badCredential, { credential: [REQUEST_MESSAGES.badCredential] });
  }
  return { username, password };
}

/** Which pending request staff resolve, and who (`actor` is written to the audit log). */
type StaffResolution = { requestId: string; staffUserId: string | null; now?: Date; actor?: StaffActor };

/**
 * Staff complete a pending replacement: with a credential from the option's stock, or with one they
 * paste (it is added to the option's stock as delivered). The back office calls this.
 */
export async function completeReplacement(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { credential?: string },
): Promise<RequestView> {
  const now = input.now ?? new Date();
  const pasted = input.credential?.trim() ? parseCredential(input.credential) : null;
  return deps.db.transaction(async (tx) => {
    const request = await pendingRequestForUpdate(tx, input.requestId);
    if (request.kind !== "replacement") throw badRequest(REQUEST_MESSAGES.notReplacement);
    if (input.actor) {
      // The credential itself never goes in the log.
      await recordAudit(tx, input.actor, {
        action: "request.complete",
        objectType: "request",
        objectId: request.id,
        objectLabel: `replacement on order ${request.orderId}`,
        before: { status: "pending" },
        after: { status: "completed", source: pasted ? "pasted" : "stock" },
      });
    }
    if (!pasted) {
      const filled = await fillFromStock(tx, deps.config, request, input.staffUserId, now);
      if (!filled) throw conflict(REQUEST_MESSAGES.noStock);
      return filled;
    }
    const [line] = await tx.select().from(orderProducts).where(eq(orderProducts.id, request.orderProductId));
    const lineId = newId();
    const [credential] = await tx
      .insert(stockCredentials)
      .values({
        optionId: line.optionId,
        ...sealedColumns(pasted),
        status: "reserved",
        orderProductId: lineId,
        createdAt: now,
      })
      .returning({ id: stockCredentials.id });
    return deliverReplacement(tx, deps.config, {
      request,
      line,
      lineId,
      credentialId: credential.id,
      staffUserId: input.staffUserId,
      now,
    });
  });
}

/** A rejection with its reason, or an answer (staff must write one: 400 naming the field when it is blank). */
async function resolveWithWords(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { words: string },
  outcome: "rejected" | "completed",
): Promise<RequestView> {
  const words = input.words.trim();
  if (!words) {
    const [field, message] =
      outcome === "rejected"
        ? ["reason", REQUEST_MESSAGES.reasonRequired]
        : ["answer", REQUEST_MESSAGES.answerRequired];
    throw badRequest(message, { [field]: [message] });
  }
  const now = input.now ?? new Date();
  return deps.db.transaction(async (tx) => {
    const request = await pendingRequestForUpdate(tx, input.requestId);
    if (outcome === "completed" && request.kind !== "other") throw badRequest(REQUEST_MESSAGES.notOther);
    if (input.actor) {
      await recordAudit(tx, input.actor, {
        action: outcome === "rejected" ? "request.reject" : "request.answer",
        objectType: "request",
        objectId: request.id,
        objectLabel: `${request.kind} on order ${request.orderId}`,
        before: { status: "pending" },
        after: { status: outcome, words },
      });
    }
    const [resolved] = await tx
      .update(requests)
      .set({ status: outcome, answer: words, resolvedAt: now, resolvedBy: input.staffUserId })
      .where(eq(requests.id, request.id))
      .returning();
    const [line] = await tx
      .select({ title: orderProducts.title })
      .from(orderProducts)
      .where(eq(orderProducts.id, request.orderProductId));
    await mailOutcome(tx, deps.config, resolved, line.title, now);
    return (await requestViews(tx, [resolved]))[0];
  });
}

/** Staff decline a pending request (of either kind) with a reason the customer sees on the order. */
export async function rejectRequest(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { reason: string },
): Promise<RequestView> {
  return resolveWithWords(deps, { ...input, words: input.reason }, "rejected");
}

/** Staff answer an other request: it is completed, with the answer shown on the order. */
export async function answerRequest(
  deps: Pick<RequestDeps, "db" | "config">,
  input: StaffResolution & { answer: string },
): Promise<RequestView> {
  return resolveWithWords(deps, { ...input, words: input.answer }, "completed");
}

async function hasAvailableStock(db: Executor, optionId: string): Promise<boolean> {
  const [row] = await db
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .where(and(eq(stockCredentials.optionId, optionId), eq(stockCredentials.status, "available")))
    .limit(1);
  return !!row;
}

/**
 * Stock arrived for an option: its waiting replacement requests are filled first, oldest first, while
 * stock lasts. Products with automatic replacement off are left to staff. The stock import calls this
 * in its own transaction, after adding credentials and before anyone else can see them; each request is
 * filled in its own (nested) transaction. Answers how many.
 */
export async function fillWaitingReplacements(
  db: Executor,
  optionId: string,
  config: NotifyDeps,
  now = new Date(),
): Promise<number> {
  const [product] = await db
    .select({ autoReplace: products.autoReplace })
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(eq(productOptions.id, optionId));
  if (!product?.autoReplace) return 0;
  let filled = 0;
  const skipped = new Set<string>();
  for (;;) {
    const waiting = await db
      .select({ id: requests.id })
      .from(requests)
      .innerJoin(orderProducts, eq(orderProducts.id, requests.orderProductId))
      .where(
        and(eq(orderProducts.optionId, optionId), eq(requests.kind, "replacement"), eq(requests.status, "pending")),
      )
      .orderBy(asc(requests.createdAt), asc(requests.id))
      .limit(skipped.size + 1);
    const next = waiting.find((row) => !skipped.has(row.id));
    if (!next) return filled;
    const outcome = await db.transaction(async (tx) => {
      const request = await pendingRequestForUpdate(tx, next.id).catch(() => null);
      if (!request) return "gone" as const;
      return (await fillFromStock(tx, config, request, null, now)) ? ("filled" as const) : ("sold out" as const);
    });
    if (outcome === "filled") {
      filled++;
      continue;
    }
    skipped.add(next.id);
    // A request is not filled from the very account it replaces (ADR 025), so the next may still be.
    if (outcome === "sold out" && !(await hasAvailableStock(db, optionId))) return filled;
  }
}
