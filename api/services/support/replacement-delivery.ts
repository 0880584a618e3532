import { and, asc, eq, max } from "drizzle-orm";
import type { Config } from "../../config";
import type { Executor } from "../../db/client";
import { newId } from "../../db/ids";
import {
  deliveredCredentials,
  orderProducts,
  orders,
  productOptions,
  products,
  requests,
  stockCredentials,
} from "../../db/schema";
import { productSnapshotOf } from "../orders/order-lines";
import { type NotifyDeps } from "../notifications/operator-notices";
import { claimCredentials, resellReplacedSeat } from "../stock/claims";
import { recheckStockLevels } from "../stock/levels";
import {
  type LineRow,
  type RequestRow,
  type RequestView,
  mailRequestOutcome,
  pendingRequestForUpdate,
  requestViews,
} from "./request-records";

/*
 * Delivery of a warranty replacement (ADR 020, ADR 025): from the option's stock when the customer asks
 * or when stock arrives, or with a credential staff paste (admin-requests.ts).
 */

/**
 * Claims one credential of the option and delivers it for a pending replacement request; null when
 * the option has no stock (nothing is changed then). Never a seat of the account being replaced: that
 * account just failed the buyer (ADR 025). The caller holds the order's lock.
 */
export async function fillFromStock(
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
export async function deliverReplacement(
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
    ...productSnapshotOf(line),
    title: line.title,
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
  await mailRequestOutcome(tx, config, completed, line.title, now);
  return (await requestViews(tx, [completed]))[0];
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
