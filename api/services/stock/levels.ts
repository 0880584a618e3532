import { and, asc, count, eq, inArray, isNull, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { productOptions, products, stockCredentials } from "../../db/schema";
import { type NotifyDeps, notifyOperator } from "../notifications/operator-notices";

/*
 * Low-stock and sold-out notices, once per crossing (ADR 030). product_options.low_stock_notified_at and
 * sold_out_notified_at are set when the operator is told, and cleared when the free stock is back at or
 * above the threshold (above zero for sold out): a sale under the threshold that was already reported
 * tells nobody again; a restock re-arms the notice.
 */

async function freeStockOf(tx: Executor, optionIds: string[]): Promise<Map<string, number>> {
  const rows = await tx
    .select({ optionId: stockCredentials.optionId, free: count() })
    .from(stockCredentials)
    .where(and(inArray(stockCredentials.optionId, optionIds), eq(stockCredentials.status, "available")))
    .groupBy(stockCredentials.optionId);
  return new Map(rows.map((row) => [row.optionId, Number(row.free)]));
}

/**
 * Compares the free stock of these options with their thresholds after stock was claimed, imported or
 * voided, and tells the operator of each option that just fell under its threshold or sold out; an option
 * back above has its notice re-armed. Call it at the END of the transaction that changed the stock.
 *
 * The options' rows are locked (in id order, so two transactions never deadlock on them) before the stock
 * is counted: the count then sees every claim committed before, and of two checkouts that cross the
 * threshold together the second sees the first's claim, so the crossing is reported once and never missed.
 */
export async function recheckStockLevels(
  tx: Executor,
  deps: NotifyDeps,
  optionIds: Iterable<string>,
  now = new Date(),
): Promise<void> {
  const ids = [...new Set(optionIds)].sort();
  if (ids.length === 0) return;
  const options = await tx
    .select({
      id: productOptions.id,
      title: productOptions.title,
      threshold: productOptions.lowStockThreshold,
      lowStockNotifiedAt: productOptions.lowStockNotifiedAt,
      soldOutNotifiedAt: productOptions.soldOutNotifiedAt,
      productId: products.id,
      productTitle: products.title,
      fulfilMode: products.fulfilMode,
    })
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(inArray(productOptions.id, ids))
    .orderBy(asc(productOptions.id))
    .for("no key update", { of: productOptions });
  const free = await freeStockOf(tx, ids);
  for (const option of options) {
    // Manual products are delivered by hand: they have no stock to run out of.
    if (option.fulfilMode === "manual") continue;
    const available = free.get(option.id) ?? 0;
    const names = {
      productId: option.productId,
      optionId: option.id,
      product: option.productTitle,
      option: option.title,
    };
    const stamp = `${option.id}:${now.getTime()}`;
    if (available === 0) {
      // Sold out says it all: a threshold crossed on the way down is marked, not told separately.
      if (option.threshold > 0 && !option.lowStockNotifiedAt)
        await markNotified(tx, option.id, "lowStockNotifiedAt", now);
      if (await markNotified(tx, option.id, "soldOutNotifiedAt", now)) {
        await notifyOperator(tx, deps, { event: "stock.sold_out", key: stamp, data: names }, now);
      }
      continue;
    }
    if (option.soldOutNotifiedAt) {
      await tx.update(productOptions).set({ soldOutNotifiedAt: null }).where(eq(productOptions.id, option.id));
    }
    if (option.threshold > 0 && available < option.threshold) {
      if (await markNotified(tx, option.id, "lowStockNotifiedAt", now)) {
        await notifyOperator(
          tx,
          deps,
          { event: "stock.low", key: stamp, data: { ...names, available, threshold: option.threshold } },
          now,
        );
      }
    } else if (option.lowStockNotifiedAt) {
      await tx.update(productOptions).set({ lowStockNotifiedAt: null }).where(eq(productOptions.id, option.id));
    }
  }
}

/** True when this call set the mark, i.e. the crossing it stands for was not reported yet. */
async function markNotified(
  tx: Executor,
  optionId: string,
  mark: "lowStockNotifiedAt" | "soldOutNotifiedAt",
  now: Date,
): Promise<boolean> {
  const marked = await tx
    .update(productOptions)
    .set({ [mark]: now })
    .where(and(eq(productOptions.id, optionId), isNull(productOptions[mark])))
    .returning({ id: productOptions.id });
  return marked.length > 0;
}

/**
 * Stock came back (reservations released): re-arms the notices of these options that are back at or above
 * their threshold, or above zero. It never notifies, so it needs no configuration, and it never waits: an
 * option whose row another transaction holds is skipped (that transaction is a recheckStockLevels, which
 * re-arms it itself when it sees the stock back), so releasing many orders at once cannot deadlock.
 */
export async function rearmStockNotifications(tx: Executor, optionIds: Iterable<string>): Promise<void> {
  const ids = [...new Set(optionIds)].sort();
  if (ids.length === 0) return;
  const free = sql`(select count(*) from ${stockCredentials} where ${stockCredentials.optionId} = ${productOptions.id} and ${stockCredentials.status} = 'available')`;
  const flagged = tx
    .select({ id: productOptions.id })
    .from(productOptions)
    .where(
      and(
        inArray(productOptions.id, ids),
        sql`((${productOptions.lowStockNotifiedAt} is not null and ${free} >= ${productOptions.lowStockThreshold})
          or (${productOptions.soldOutNotifiedAt} is not null and ${free} > 0))`,
      ),
    )
    .orderBy(asc(productOptions.id))
    .for("no key update", { skipLocked: true });
  await tx
    .update(productOptions)
    .set({
      lowStockNotifiedAt: sql`case when ${free} >= ${productOptions.lowStockThreshold} then null else ${productOptions.lowStockNotifiedAt} end`,
      soldOutNotifiedAt: sql`case when ${free} > 0 then null else ${productOptions.soldOutNotifiedAt} end`,
    })
    .where(inArray(productOptions.id, flagged));
}
