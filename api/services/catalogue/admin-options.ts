import { and, count, eq, ne } from "drizzle-orm";
import { type DurationInput, type OptionInput } from "../../../contract/admin-catalogue";
import type { DeletedDuration, SavedDuration, SavedOption } from "../../../contract/answers/admin-catalogue";
import { usdToCents } from "../../../contract/money";
import type { Database, Executor } from "../../db/client";
import { productOptions, products, stockCredentials, warrantyDurations } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { brokenUniqueIndex } from "../accounts/accounts";
import { type StaffActor, recordAudit } from "../staff/audit";
import type { NotifyDeps } from "../notifications/operator-notices";
import { recheckStockLevels } from "../stock/levels";
import { ADMIN_CATALOGUE_MESSAGES } from "./admin";
import { durationViewOf, lockedProduct } from "./admin-products";

/* The back office's options of a product and their warranty durations (ADR 024). */

async function lockedOption(tx: Executor, optionId: string) {
  const [row] = await tx
    .select({ option: productOptions, productTitle: products.title })
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(eq(productOptions.id, optionId))
    .for("update", { of: productOptions });
  if (!row) throw notFound(ADMIN_CATALOGUE_MESSAGES.optionNotFound);
  return row;
}

const optionLabel = (productTitle: string, optionTitle: string) => `${productTitle} — ${optionTitle}`;

export async function createOption(
  db: Database,
  actor: StaffActor,
  productId: string,
  input: OptionInput,
): Promise<SavedOption> {
  return db.transaction(async (tx) => {
    const product = await lockedProduct(tx, productId);
    const [row] = await tx
      .insert(productOptions)
      .values({ ...input, productId })
      .returning({ id: productOptions.id });
    await recordAudit(tx, actor, {
      action: "option.create",
      objectType: "option",
      objectId: row.id,
      objectLabel: optionLabel(product.title, input.title),
      after: input,
    });
    return { _id: row.id, productId, title: input.title };
  });
}

/**
 * Saves an option. Seats change only while it has no stock rows (an account is imported as one row per
 * seat); a new low-stock threshold is compared with the free seats at once, so a notice goes out if the
 * option is already under it.
 */
export async function updateOption(
  db: Database,
  actor: StaffActor,
  deps: NotifyDeps,
  optionId: string,
  input: OptionInput,
): Promise<SavedOption> {
  return db.transaction(async (tx) => {
    const { option: before, productTitle } = await lockedOption(tx, optionId);
    if (input.seats !== before.seats) {
      const [{ rows }] = await tx
        .select({ rows: count() })
        .from(stockCredentials)
        .where(eq(stockCredentials.optionId, optionId));
      if (Number(rows) > 0) {
        throw new AppError(409, ADMIN_CATALOGUE_MESSAGES.seatsFixed, { seats: [ADMIN_CATALOGUE_MESSAGES.seatsFixed] });
      }
    }
    await tx.update(productOptions).set(input).where(eq(productOptions.id, optionId));
    await recordAudit(tx, actor, {
      action: "option.update",
      objectType: "option",
      objectId: optionId,
      objectLabel: optionLabel(productTitle, input.title),
      before: {
        title: before.title,
        seats: before.seats,
        lowStockThreshold: before.lowStockThreshold,
        active: before.active,
        position: before.position,
      },
      after: input,
    });
    if (input.lowStockThreshold !== before.lowStockThreshold) await recheckStockLevels(tx, deps, [optionId]);
    return { _id: optionId, productId: before.productId, title: input.title };
  });
}

// ---------------------------------------------------------------- warranty durations
const daysTaken = () =>
  new AppError(409, ADMIN_CATALOGUE_MESSAGES.daysTaken, { days: [ADMIN_CATALOGUE_MESSAGES.daysTaken] });

/** Two staff adding the same days at once: the unique index decides, and the loser hears why. */
async function withDaysRace<T>(work: () => Promise<T>): Promise<T> {
  try {
    return await work();
  } catch (error) {
    if (brokenUniqueIndex(error) === "warranty_durations_option_duration_key") throw daysTaken();
    throw error;
  }
}

async function assertDaysFree(tx: Executor, optionId: string, days: number, exceptId?: string) {
  const [taken] = await tx
    .select({ id: warrantyDurations.id })
    .from(warrantyDurations)
    .where(
      and(
        eq(warrantyDurations.optionId, optionId),
        eq(warrantyDurations.durationDays, days),
        exceptId ? ne(warrantyDurations.id, exceptId) : undefined,
      ),
    );
  if (taken) throw daysTaken();
}

const durationColumns = (input: DurationInput) => ({
  title: input.title,
  durationDays: input.days,
  priceCents: usdToCents(input.price),
  position: input.position,
});

export async function createDuration(
  db: Database,
  actor: StaffActor,
  optionId: string,
  input: DurationInput,
): Promise<SavedDuration> {
  return withDaysRace(() =>
    db.transaction(async (tx) => {
      const { option, productTitle } = await lockedOption(tx, optionId);
      await assertDaysFree(tx, optionId, input.days);
      const [row] = await tx
        .insert(warrantyDurations)
        .values({ ...durationColumns(input), optionId })
        .returning();
      await recordAudit(tx, actor, {
        action: "duration.create",
        objectType: "duration",
        objectId: row.id,
        objectLabel: `${optionLabel(productTitle, option.title)} — ${input.title}`,
        after: input,
      });
      return { ...durationViewOf(row), productId: option.productId };
    }),
  );
}

async function lockedDuration(tx: Executor, durationId: string) {
  const [row] = await tx.select().from(warrantyDurations).where(eq(warrantyDurations.id, durationId)).for("update");
  if (!row) throw notFound(ADMIN_CATALOGUE_MESSAGES.durationNotFound);
  const { option, productTitle } = await lockedOption(tx, row.optionId);
  return { row, option, label: `${optionLabel(productTitle, option.title)} — ${row.title}` };
}

export async function updateDuration(
  db: Database,
  actor: StaffActor,
  durationId: string,
  input: DurationInput,
): Promise<SavedDuration> {
  return withDaysRace(() =>
    db.transaction(async (tx) => {
      const { row: before, option, label } = await lockedDuration(tx, durationId);
      await assertDaysFree(tx, option.id, input.days, durationId);
      const [row] = await tx
        .update(warrantyDurations)
        .set(durationColumns(input))
        .where(eq(warrantyDurations.id, durationId))
        .returning();
      const { _id: _ignored, ...shownBefore } = durationViewOf(before);
      await recordAudit(tx, actor, {
        action: "duration.update",
        objectType: "duration",
        objectId: durationId,
        objectLabel: label,
        before: shownBefore,
        after: input,
      });
      return { ...durationViewOf(row), productId: option.productId };
    }),
  );
}

/** Orders keep the days and price they were bought with; the shop stops offering this duration at once. */
export async function deleteDuration(db: Database, actor: StaffActor, durationId: string): Promise<DeletedDuration> {
  return db.transaction(async (tx) => {
    const { row, option, label } = await lockedDuration(tx, durationId);
    await tx.delete(warrantyDurations).where(eq(warrantyDurations.id, durationId));
    const { _id: _ignored, ...shown } = durationViewOf(row);
    await recordAudit(tx, actor, {
      action: "duration.delete",
      objectType: "duration",
      objectId: durationId,
      objectLabel: label,
      before: shown,
    });
    return { title: row.title, productId: option.productId };
  });
}
