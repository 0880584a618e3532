import { asc, count, eq, sql } from "drizzle-orm";
import type { CategoryInput } from "../../../contract/admin-catalogue";
import type { AdminCategory, DeletedCategory } from "../../../contract/answers/admin-catalogue";
import type { Database, Executor } from "../../db/client";
import { categories, productCategories } from "../../db/schema";
import { notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";

/*
 * The back office's catalogue (ADR 024): categories here, products in admin-products.ts, options and
 * warranty durations in admin-options.ts.
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
