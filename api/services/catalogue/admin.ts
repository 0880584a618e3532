import { type SQL, and, asc, count, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import {
  CATALOGUE_PAGE_SIZE,
  type CategoryInput,
  type DurationInput,
  type OptionInput,
  type ProductInput,
} from "../../../contract/admin-catalogue";
import type {
  AdminCategory,
  AdminDuration,
  AdminProduct,
  AdminProductPage,
  DeletedCategory,
  DeletedDuration,
  SavedDuration,
  SavedOption,
} from "../../../contract/answers/admin-catalogue";
import { centsToUsd, usdToCents } from "../../../contract/money";
import type { Database, Executor } from "../../db/client";
import {
  categories,
  productCategories,
  productOptions,
  products,
  stockCredentials,
  warrantyDurations,
} from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import { brokenUniqueIndex } from "../accounts/accounts";
import { type StaffActor, recordAudit } from "../staff/audit";
import type { NotifyDeps } from "../notifications/operator-notices";
import { containsPattern, readPage } from "../shared/paging";
import { recheckStockLevels } from "../stock/levels";

/*
 * The back office's catalogue (ADR 024): categories, products, options and warranty durations.
 * Products and options are hidden, never deleted: orders, carts, stock and redeem keys point at them, and
 * an order keeps its own copy of what was bought. A duration can be deleted (carts and orders keep the
 * days and price they chose). Every change is audited in its own transaction.
 */

export const ADMIN_CATALOGUE_MESSAGES = {
  categoryNotFound: "No category has this id",
  productNotFound: "No product has this id",
  optionNotFound: "No option has this id",
  durationNotFound: "No warranty duration has this id",
  unknownCategories: "Some of the chosen categories do not exist any more. Choose again.",
  seatsFixed: "Seats can change only while the option has no stock: each imported account holds one row per seat.",
  daysTaken: "This option already has a warranty of this many days",
} as const;

const freeSeats = sql<number>`count(*) filter (where ${stockCredentials.status} = 'available')`.mapWith(Number);

// ---------------------------------------------------------------- categories

export async function listCategories(db: Executor): Promise<AdminCategory[]> {
  const rows = await db
    .select({
      id: categories.id,
      name: categories.name,
      position: categories.position,
      products: sql<number>`count(${productCategories.productId})`.mapWith(Number),
    })
    .from(categories)
    .leftJoin(productCategories, eq(productCategories.categoryId, categories.id))
    .groupBy(categories.id)
    .orderBy(asc(categories.position), asc(categories.name), asc(categories.id));
  return rows.map((row) => ({ _id: row.id, name: row.name, position: row.position, products: row.products }));
}

async function lockedCategory(tx: Executor, categoryId: string) {
  const [row] = await tx.select().from(categories).where(eq(categories.id, categoryId)).for("update");
  if (!row) throw notFound(ADMIN_CATALOGUE_MESSAGES.categoryNotFound);
  return row;
}

export async function createCategory(db: Database, actor: StaffActor, input: CategoryInput): Promise<AdminCategory> {
  return db.transaction(async (tx) => {
    const [row] = await tx.insert(categories).values(input).returning();
    await recordAudit(tx, actor, {
      action: "category.create",
      objectType: "category",
      objectId: row.id,
      objectLabel: row.name,
      after: input,
    });
    return { _id: row.id, name: row.name, position: row.position, products: 0 };
  });
}

export async function updateCategory(
  db: Database,
  actor: StaffActor,
  categoryId: string,
  input: CategoryInput,
): Promise<AdminCategory> {
  return db.transaction(async (tx) => {
    const before = await lockedCategory(tx, categoryId);
    await tx.update(categories).set(input).where(eq(categories.id, categoryId));
    await recordAudit(tx, actor, {
      action: "category.update",
      objectType: "category",
      objectId: categoryId,
      objectLabel: input.name,
      before: { name: before.name, position: before.position },
      after: input,
    });
    const [{ linked }] = await tx
      .select({ linked: count() })
      .from(productCategories)
      .where(eq(productCategories.categoryId, categoryId));
    return { _id: categoryId, ...input, products: Number(linked) };
  });
}

/** Deletes a category; its products stay, in their other categories (or none). */
export async function deleteCategory(db: Database, actor: StaffActor, categoryId: string): Promise<DeletedCategory> {
  return db.transaction(async (tx) => {
    const before = await lockedCategory(tx, categoryId);
    await tx.delete(categories).where(eq(categories.id, categoryId));
    await recordAudit(tx, actor, {
      action: "category.delete",
      objectType: "category",
      objectId: categoryId,
      objectLabel: before.name,
      before: { name: before.name, position: before.position },
    });
    return { name: before.name };
  });
}

// ---------------------------------------------------------------- products

/** Every product, hidden ones too, in shop order; `search` matches part of the title or label. */
export async function listProducts(db: Executor, query: { page: number; search: string }): Promise<AdminProductPage> {
  const filters: SQL[] = [];
  if (query.search) {
    const pattern = containsPattern(query.search);
    filters.push(or(ilike(products.title, pattern), ilike(products.label, pattern))!);
  }
  const where = filters.length > 0 ? and(...filters) : undefined;
  const optionTotals = db
    .select({
      productId: productOptions.productId,
      options: sql<number>`count(distinct ${productOptions.id})`.mapWith(Number).as("options"),
      free: sql<number>`count(${stockCredentials.id})`.mapWith(Number).as("free"),
    })
    .from(productOptions)
    .leftJoin(
      stockCredentials,
      and(eq(stockCredentials.optionId, productOptions.id), eq(stockCredentials.status, "available")),
    )
    .groupBy(productOptions.productId)
    .as("option_totals");
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: products.id,
        title: products.title,
        label: products.label,
        picture: products.picture,
        active: products.active,
        fulfilMode: products.fulfilMode,
        position: products.position,
        options: optionTotals.options,
        free: optionTotals.free,
      })
      .from(products)
      .leftJoin(optionTotals, eq(optionTotals.productId, products.id))
      .$dynamic(),
    {
      counted: products,
      where,
      orderBy: [asc(products.position), asc(products.createdAt), asc(products.id)],
      page: query.page,
      pageSize: CATALOGUE_PAGE_SIZE,
    },
  );
  const names = await categoryNamesOf(
    db,
    rows.map((row) => row.id),
  );
  return {
    records: rows.map((row) => ({
      _id: row.id,
      title: row.title,
      label: row.label,
      picture: row.picture,
      active: row.active,
      fulfilMode: row.fulfilMode,
      position: row.position,
      categories: names.get(row.id) ?? [],
      options: row.options ?? 0,
      freeStock: row.free ?? 0,
    })),
    pager,
  };
}

async function categoryNamesOf(db: Executor, productIds: string[]) {
  const byProduct = new Map<string, string[]>();
  if (productIds.length === 0) return byProduct;
  const links = await db
    .select({ productId: productCategories.productId, name: categories.name })
    .from(productCategories)
    .innerJoin(categories, eq(categories.id, productCategories.categoryId))
    .where(inArray(productCategories.productId, productIds))
    .orderBy(asc(categories.position), asc(categories.name));
  for (const link of links) byProduct.set(link.productId, [...(byProduct.get(link.productId) ?? []), link.name]);
  return byProduct;
}

/** A product with its categories, and every option (hidden ones too) with its free seats and durations. */
export async function readProduct(db: Executor, productId: string): Promise<AdminProduct> {
  const [row] = await db.select().from(products).where(eq(products.id, productId));
  if (!row) throw notFound(ADMIN_CATALOGUE_MESSAGES.productNotFound);
  const [links, options] = await Promise.all([
    db
      .select({ categoryId: productCategories.categoryId })
      .from(productCategories)
      .where(eq(productCategories.productId, productId)),
    db
      .select({
        option: productOptions,
        freeSeats,
        stockRows: sql<number>`count(${stockCredentials.id})`.mapWith(Number),
      })
      .from(productOptions)
      .leftJoin(stockCredentials, eq(stockCredentials.optionId, productOptions.id))
      .where(eq(productOptions.productId, productId))
      .groupBy(productOptions.id)
      .orderBy(asc(productOptions.position), asc(productOptions.createdAt), asc(productOptions.id)),
  ]);
  const durations =
    options.length === 0
      ? []
      : await db
          .select()
          .from(warrantyDurations)
          .where(
            inArray(
              warrantyDurations.optionId,
              options.map(({ option }) => option.id),
            ),
          )
          .orderBy(asc(warrantyDurations.position), asc(warrantyDurations.durationDays));
  return {
    _id: row.id,
    ...productFieldsOf(row),
    categoryIds: links.map((link) => link.categoryId),
    updatedAt: row.updatedAt.toISOString(),
    options: options.map(({ option, freeSeats: free, stockRows }) => ({
      _id: option.id,
      title: option.title,
      seats: option.seats,
      lowStockThreshold: option.lowStockThreshold,
      active: option.active,
      position: option.position,
      freeSeats: free,
      stockRows,
      durations: durations.filter((duration) => duration.optionId === option.id).map(durationViewOf),
    })),
  };
}

function productFieldsOf(row: typeof products.$inferSelect): Omit<ProductInput, "categoryIds"> {
  return {
    title: row.title,
    label: row.label,
    subtitle: row.subtitle,
    description: row.description,
    deliveryNotes: row.deliveryNotes,
    picture: row.picture,
    minQuantity: row.minQuantity,
    maxQuantity: row.maxQuantity,
    fulfilMode: row.fulfilMode,
    replacementLimit: row.replacementLimit,
    autoReplace: row.autoReplace,
    active: row.active,
    position: row.position,
  };
}

async function assertCategoriesExist(tx: Executor, categoryIds: string[]) {
  const unique = [...new Set(categoryIds)];
  if (unique.length === 0) return unique;
  const [{ found }] = await tx.select({ found: count() }).from(categories).where(inArray(categories.id, unique));
  if (Number(found) !== unique.length) {
    throw badRequest(ADMIN_CATALOGUE_MESSAGES.unknownCategories, {
      categoryIds: [ADMIN_CATALOGUE_MESSAGES.unknownCategories],
    });
  }
  return unique;
}

/** What the audit log shows of a product: its fields, with descriptions shortened. */
function auditFieldsOf(fields: Omit<ProductInput, "categoryIds">, categoryIds: string[]) {
  const short = (text: string) => (text.length > 120 ? `${text.slice(0, 117)}…` : text);
  return {
    ...fields,
    description: short(fields.description),
    deliveryNotes: short(fields.deliveryNotes),
    categoryIds: [...categoryIds].sort(),
  };
}

async function setCategories(tx: Executor, productId: string, categoryIds: string[]) {
  await tx.delete(productCategories).where(eq(productCategories.productId, productId));
  if (categoryIds.length > 0) {
    await tx.insert(productCategories).values(categoryIds.map((categoryId) => ({ productId, categoryId })));
  }
}

export async function createProduct(db: Database, actor: StaffActor, input: ProductInput): Promise<AdminProduct> {
  const productId = await db.transaction(async (tx) => {
    const categoryIds = await assertCategoriesExist(tx, input.categoryIds);
    const { categoryIds: _ignored, ...fields } = input;
    const [row] = await tx.insert(products).values(fields).returning({ id: products.id });
    await setCategories(tx, row.id, categoryIds);
    await recordAudit(tx, actor, {
      action: "product.create",
      objectType: "product",
      objectId: row.id,
      objectLabel: input.title,
      after: auditFieldsOf(fields, categoryIds),
    });
    return row.id;
  });
  return readProduct(db, productId);
}

async function lockedProduct(tx: Executor, productId: string) {
  const [row] = await tx.select().from(products).where(eq(products.id, productId)).for("update");
  if (!row) throw notFound(ADMIN_CATALOGUE_MESSAGES.productNotFound);
  return row;
}

/** Saves every field of a product; the product's row is locked, so two saves apply one after the other. */
export async function updateProduct(
  db: Database,
  actor: StaffActor,
  productId: string,
  input: ProductInput,
): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    const before = await lockedProduct(tx, productId);
    const beforeCategories = (
      await tx
        .select({ id: productCategories.categoryId })
        .from(productCategories)
        .where(eq(productCategories.productId, productId))
    ).map((link) => link.id);
    const categoryIds = await assertCategoriesExist(tx, input.categoryIds);
    const { categoryIds: _ignored, ...fields } = input;
    await tx
      .update(products)
      .set({ ...fields, updatedAt: new Date() })
      .where(eq(products.id, productId));
    await setCategories(tx, productId, categoryIds);
    await recordAudit(tx, actor, {
      action: "product.update",
      objectType: "product",
      objectId: productId,
      objectLabel: input.title,
      before: auditFieldsOf(productFieldsOf(before), beforeCategories),
      after: auditFieldsOf(fields, categoryIds),
    });
  });
  return readProduct(db, productId);
}

/** Points the product at a stored picture (an upload) and audits it. */
export async function setProductPicture(
  db: Database,
  actor: StaffActor,
  productId: string,
  picture: string,
): Promise<AdminProduct> {
  await db.transaction(async (tx) => {
    const before = await lockedProduct(tx, productId);
    await tx.update(products).set({ picture, updatedAt: new Date() }).where(eq(products.id, productId));
    await recordAudit(tx, actor, {
      action: "product.picture",
      objectType: "product",
      objectId: productId,
      objectLabel: before.title,
      before: { picture: before.picture },
      after: { picture },
    });
  });
  return readProduct(db, productId);
}

// ---------------------------------------------------------------- options

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

function durationViewOf(row: typeof warrantyDurations.$inferSelect): AdminDuration {
  return {
    _id: row.id,
    title: row.title,
    days: row.durationDays,
    price: centsToUsd(row.priceCents),
    position: row.position,
  };
}

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
