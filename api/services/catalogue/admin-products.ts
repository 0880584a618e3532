import { type SQL, and, asc, count, eq, ilike, inArray, or, sql } from "drizzle-orm";
import { CATALOGUE_PAGE_SIZE, type ProductInput } from "../../../contract/admin-catalogue";
import type { AdminDuration, AdminProduct, AdminProductPage } from "../../../contract/answers/admin-catalogue";
import { centsToUsd } from "../../../contract/money";
import type { Database, Executor } from "../../db/client";
import {
  categories,
  productCategories,
  productOptions,
  products,
  stockCredentials,
  warrantyDurations,
} from "../../db/schema";
import { badRequest, notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, readPage } from "../shared/paging";
import { ADMIN_CATALOGUE_MESSAGES } from "./admin";

/* The back office's products (ADR 024): the list, one product with its options, and saving one. */

const freeSeats = sql<number>`count(*) filter (where ${stockCredentials.status} = 'available')`.mapWith(Number);

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

export async function lockedProduct(tx: Executor, productId: string) {
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

/** A warranty duration as staff see it, on the product and after a save. */
export function durationViewOf(row: typeof warrantyDurations.$inferSelect): AdminDuration {
  return {
    _id: row.id,
    title: row.title,
    days: row.durationDays,
    price: centsToUsd(row.priceCents),
    position: row.position,
  };
}
