import { type SQL, and, asc, eq, inArray, notExists, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { categories, productCategories, productOptions, products, warrantyDurations } from "../../db/schema";
import { centsToUsd } from "../../../contract/money";
import type { ProductCard, Shelf, ShopShelves } from "../../../contract/answers/catalogue";
import { MANUAL_STOCK, availableStockOfOption, qualified } from "./shop";

/*
 * The shop's shelves (issue 27): what /shop shows, counted and paged in SQL. The categories' counts are one
 * COUNT … GROUP BY, and only the cards on show are built (their stock and lowest price summed for those
 * products alone), so the page costs the same at 300 products as at 30.
 */

/** The id of the shelf of products in no category: shown last, whole, on the whole shop only. */
export const UNCATEGORISED_SHELF = { _id: "other", name: "Other" } as const;

export type ShelvesQuery = {
  /** Matched case-insensitively anywhere in a product's title; empty: every product. */
  search: string;
  /** One category's shelf, whole; empty, or not a category with products: every shelf, `perShelf` cards each. */
  category: string;
  perShelf: number;
};

export async function listShopShelves(db: Executor, query: ShelvesQuery): Promise<ShopShelves> {
  // strpos, not LIKE: a % or _ in the search is a character to find, as the page always treated it.
  const matches = sql`strpos(lower(${products.title}), ${query.search.toLowerCase()}) > 0`;
  const [counted, uncategorised] = await Promise.all([
    db
      .select({
        _id: categories.id,
        name: categories.name,
        matching: sql<number>`count(*) filter (where ${matches})`.mapWith(Number),
      })
      .from(categories)
      .innerJoin(productCategories, eq(productCategories.categoryId, categories.id))
      .innerJoin(products, and(eq(products.id, productCategories.productId), eq(products.active, true)))
      .groupBy(categories.id)
      .orderBy(asc(categories.position), asc(categories.name)),
    // Few by design (every product has a category), and shown whole: listed, not counted.
    db
      .select({ productId: products.id })
      .from(products)
      .where(and(eq(products.active, true), matches, notExists(categoryLinksOfProducts(db))))
      .orderBy(...productOrder),
  ]);
  // The filter offers only categories with a product to show: choosing one never gives an empty shop.
  const offered = counted.map(({ _id, name }) => ({ _id, name }));
  const category = offered.some((candidate) => candidate._id === query.category) ? query.category : "";
  const shelves = counted
    .filter((candidate) => candidate.matching > 0 && (!category || candidate._id === category))
    .map((candidate) => ({ _id: candidate._id, name: candidate.name, total: candidate.matching }));
  const others = category ? [] : uncategorised;
  const shelved = await rankedOnShelves(db, {
    matches,
    categoryIds: shelves.map((shelf) => shelf._id),
    perShelf: category ? null : query.perShelf,
  });
  const cards = await cardsOf(db, [
    ...shelved,
    ...others.map(({ productId }) => ({ shelfId: UNCATEGORISED_SHELF._id, productId })),
  ]);
  const filled: Shelf[] = shelves.map((shelf) => ({ ...shelf, products: cards.get(shelf._id) ?? [] }));
  if (others.length > 0) filled.push({ ...UNCATEGORISED_SHELF, total: others.length, products: cards.get("other")! });
  return { categories: offered, category, shelves: filled };
}

const productOrder = [asc(products.position), asc(products.createdAt)];

/** The category links of the product in the enclosing query. */
const categoryLinksOfProducts = (db: Executor) =>
  db
    .select({ one: sql`1` })
    .from(productCategories)
    .where(eq(productCategories.productId, qualified(products.id)));

type Placement = { shelfId: string; productId: string };

/** The matching products of these categories, ranked by product position within each, the first `perShelf` (null: all). */
async function rankedOnShelves(
  db: Executor,
  input: { matches: SQL; categoryIds: string[]; perShelf: number | null },
): Promise<Placement[]> {
  if (input.categoryIds.length === 0) return [];
  const ranked = db.$with("ranked").as(
    db
      .select({
        shelfId: sql<string>`${productCategories.categoryId}`.as("shelf_id"),
        productId: sql<string>`${products.id}`.as("product_id"),
        rank: sql<number>`row_number() over (
          partition by ${productCategories.categoryId} order by ${products.position}, ${products.createdAt}
        )`.as("shelf_rank"),
      })
      .from(productCategories)
      .innerJoin(products, eq(products.id, productCategories.productId))
      .where(and(inArray(productCategories.categoryId, input.categoryIds), eq(products.active, true), input.matches)),
  );
  return db
    .with(ranked)
    .select({ shelfId: ranked.shelfId, productId: ranked.productId })
    .from(ranked)
    .where(input.perShelf === null ? undefined : sql`${ranked.rank} <= ${input.perShelf}`);
}

/** The cards of these placements by shelf, in product order: stock and lowest price summed for these products alone. */
async function cardsOf(db: Executor, placements: Placement[]): Promise<Map<string, ProductCard[]>> {
  const productIds = [...new Set(placements.map((placement) => placement.productId))];
  if (productIds.length === 0) return new Map();
  const ofThisProduct = sql`${qualified(productOptions.productId)} = ${qualified(products.id)} and ${qualified(productOptions.active)}`;
  const rows = await db
    .select({
      id: products.id,
      title: products.title,
      label: products.label,
      picture: products.picture,
      fulfilMode: products.fulfilMode,
      activeOptions: sql<number>`(select count(*) from ${productOptions} where ${ofThisProduct})`.mapWith(Number),
      availableStock: sql<number>`(
        select coalesce(sum(${availableStockOfOption()}), 0) from ${productOptions} where ${ofThisProduct}
      )`.mapWith(Number),
      minPriceCents: sql<number | null>`(
        select min(${qualified(warrantyDurations.priceCents)}) from ${warrantyDurations}
        join ${productOptions} on ${qualified(productOptions.id)} = ${qualified(warrantyDurations.optionId)}
        where ${ofThisProduct}
      )`,
    })
    .from(products)
    .where(inArray(products.id, productIds))
    .orderBy(...productOrder);
  const order = new Map(rows.map((row, index) => [row.id, index]));
  const cardById = new Map(
    rows.map((row): [string, ProductCard] => [
      row.id,
      {
        _id: row.id,
        title: row.title,
        label: row.label,
        picture: row.picture,
        totalStock: row.fulfilMode === "manual" ? row.activeOptions * MANUAL_STOCK : row.availableStock,
        minPrice: row.minPriceCents == null ? 0 : centsToUsd(Number(row.minPriceCents)),
      },
    ]),
  );
  const byShelf = new Map<string, ProductCard[]>();
  for (const { shelfId, productId } of [...placements].sort(
    (a, b) => order.get(a.productId)! - order.get(b.productId)!,
  )) {
    const shelf = byShelf.get(shelfId) ?? [];
    shelf.push(cardById.get(productId)!);
    byShelf.set(shelfId, shelf);
  }
  return byShelf;
}
