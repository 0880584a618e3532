import { and, asc, desc, eq, inArray } from "drizzle-orm";
import { isPaidOrderStatus } from "../../../contract/order";
import { OPEN_OTHER_REQUESTS_PER_LINE } from "../../../contract/request";
import type { Executor } from "../../db/client";
import { deliveredCredentials, orderProducts, orders, products, requests } from "../../db/schema";
import { conflict, forbidden, notFound } from "../../errors";
import { assertHuman } from "../guards/human-check";
import { type NotifyDeps, notifyOperator } from "../notifications/operator-notices";
import { type RateRule, hitRateLimit } from "../guards/rate-limit";
import { idsOf } from "../shared/rows";
import {
  type LineKey,
  type LineRow,
  REQUEST_MESSAGES,
  type RequestDeps,
  type RequestView,
  requestViews,
} from "./request-records";
import { fillFromStock } from "./replacement-delivery";

/*
 * Warranty replacements and other requests on an order line (ADR 020). A request names a line by
 * (order, product, option) and a credential by its index: the delivered credential's position, which
 * never changes (a replacement gets the next free one), so a repeated or stale request can never hit
 * another credential. Every change to an order's requests and replacements first locks the order row,
 * so they take turns per order; the stock claim is checkout's (claimCredentials).
 */

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
