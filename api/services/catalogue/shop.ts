import { type AnyColumn, type SQL, and, asc, eq, getTableName, inArray, sql } from "drizzle-orm";
import { type Executor, prepared } from "../../db/client";
import {
  categories,
  productCategories,
  productOptions,
  products,
  stockCredentials,
  warrantyDurations,
} from "../../db/schema";
import { notFound } from "../../errors";
import { centsToUsd } from "../../../contract/money";
import type {
  Category,
  OptionWithProduct,
  Product,
  ProductOption,
  ProductPage,
} from "../../../contract/answers/catalogue";
import { productRatings } from "../support/feedback";

/** What a manual-fulfilment option reports as stock: the admin delivers, so it never runs out. */
export const MANUAL_STOCK = 999;

/**
 * A column as "table"."column". Drizzle drops the table name in single-table selects, which would
 * turn a correlated subquery's outer reference into one on the inner table.
 */
export function qualified(column: AnyColumn): SQL {
  return sql`${sql.identifier(getTableName(column.table))}.${sql.identifier(column.name)}`;
}

/**
 * Free seats of the option in the enclosing query (an available row is one seat, ADR 025), counted on the
 * (option_id, status) index.
 */
export const availableStockOfOption = () => sql`(
  select count(*) from ${stockCredentials}
  where ${qualified(stockCredentials.optionId)} = ${qualified(productOptions.id)}
    and ${qualified(stockCredentials.status)} = 'available'
)`;

/** The option and its product are both active: on sale (for a query joining product_options to products). */
export const onSale = () => and(eq(productOptions.active, true), eq(products.active, true));

export type { OptionWithProduct };

/** Per option: price in cents for each duration, kept beside the public view for cart maths. */
export type PricedOption = OptionWithProduct & {
  priceCentsByDuration: Map<number, number>;
  /** What an order's line keeps of its product: read with the option when asked (`withOrderTexts`). */
  orderTexts?: { description: string; deliveryNotes: string; fulfilMode: "auto" | "manual" };
};

export async function listCategories(db: Executor): Promise<Category[]> {
  return db
    .select({ _id: categories.id, name: categories.name })
    .from(categories)
    .orderBy(asc(categories.position), asc(categories.name));
}

/**
 * Active products with their stock, lowest price and rating in three queries whatever the catalogue size:
 * one that totals the active options per product, one for every category link, one for the ratings. Stock is counted
 * per option through the (option_id, status) index, so it stays quick as credentials pile up.
 */
/** The active products by position (or the one `productId`, if active), each with stock, lowest price and rating. */
export async function listProducts(db: Executor, productId?: string): Promise<Product[]> {
  const onlyThe = (column: AnyColumn) => (productId === undefined ? undefined : eq(column, productId));
  const optionTotals = db
    .select({
      productId: productOptions.productId,
      options: sql<number>`count(*)`.mapWith(Number).as("options"),
      available: sql<number>`coalesce(sum(${availableStockOfOption()}), 0)`.mapWith(Number).as("available"),
      minPriceCents: sql<number | null>`min((
          select min(${qualified(warrantyDurations.priceCents)}) from ${warrantyDurations}
          where ${qualified(warrantyDurations.optionId)} = ${qualified(productOptions.id)}
        ))`.as("min_price_cents"),
    })
    .from(productOptions)
    .where(and(eq(productOptions.active, true), onlyThe(productOptions.productId)))
    .groupBy(productOptions.productId)
    .as("option_totals");

  const [rows, links, ratings] = await Promise.all([
    db
      .select({
        id: products.id,
        title: products.title,
        label: products.label,
        subtitle: products.subtitle,
        picture: products.picture,
        description: products.description,
        minQuantity: products.minQuantity,
        maxQuantity: products.maxQuantity,
        fulfilMode: products.fulfilMode,
        activeOptions: optionTotals.options,
        availableStock: optionTotals.available,
        minPriceCents: optionTotals.minPriceCents,
      })
      .from(products)
      .leftJoin(optionTotals, eq(optionTotals.productId, products.id))
      .where(and(eq(products.active, true), onlyThe(products.id)))
      .orderBy(asc(products.position), asc(products.createdAt)),
    db
      .select({ productId: productCategories.productId, categoryId: productCategories.categoryId })
      .from(productCategories)
      .innerJoin(categories, eq(categories.id, productCategories.categoryId))
      .where(onlyThe(productCategories.productId))
      .orderBy(asc(categories.position)),
    productRatings(db, productId),
  ]);

  const categoryIdsByProduct = new Map<string, string[]>();
  for (const link of links) {
    const list = categoryIdsByProduct.get(link.productId) ?? [];
    list.push(link.categoryId);
    categoryIdsByProduct.set(link.productId, list);
  }

  return rows.map((row) => ({
    _id: row.id,
    title: row.title,
    label: row.label,
    subtitle: row.subtitle,
    picture: row.picture,
    description: row.description,
    totalStock: row.fulfilMode === "manual" ? (row.activeOptions ?? 0) * MANUAL_STOCK : (row.availableStock ?? 0),
    minPrice: row.minPriceCents == null ? 0 : centsToUsd(Number(row.minPriceCents)),
    minQuantity: row.minQuantity,
    maxQuantity: row.maxQuantity,
    categoryIds: categoryIdsByProduct.get(row.id) ?? [],
    fullFillmode: row.fulfilMode,
    rating: ratings.get(row.id) ?? { average: 0, count: 0 },
  }));
}

type OptionFilter = { productId: string } | { optionIds: string[] };

/**
 * Active options of active products, either of one product or by ids, each with its stock and
 * durations: two queries, one for options with a stock count, one for all their durations.
 */
export async function loadPricedOptions(
  db: Executor,
  filter: OptionFilter,
  { withOrderTexts = false } = {},
): Promise<PricedOption[]> {
  // Prepared: every cart, checkout and product page asks; an IN list is as long as a cart at most.
  const optionRows = await prepared(
    db
      .select({
        ...(withOrderTexts ? { description: products.description, deliveryNotes: products.deliveryNotes } : {}),
        id: productOptions.id,
        title: productOptions.title,
        available: availableStockOfOption().mapWith(Number),
        productId: products.id,
        productTitle: products.title,
        picture: products.picture,
        minQuantity: products.minQuantity,
        maxQuantity: products.maxQuantity,
        fulfilMode: products.fulfilMode,
      })
      .from(productOptions)
      .innerJoin(products, eq(products.id, productOptions.productId))
      .where(
        and(
          onSale(),
          "productId" in filter
            ? eq(productOptions.productId, filter.productId)
            : inArray(productOptions.id, filter.optionIds),
        ),
      )
      .orderBy(asc(productOptions.position), asc(productOptions.createdAt)),
    "priced_options",
  );
  if (optionRows.length === 0) return [];

  const durationRows = await prepared(
    db
      .select()
      .from(warrantyDurations)
      .where(
        inArray(
          warrantyDurations.optionId,
          optionRows.map((row) => row.id),
        ),
      )
      .orderBy(asc(warrantyDurations.position), asc(warrantyDurations.durationDays)),
    "option_durations",
  );
  const durationsByOption = new Map<string, (typeof durationRows)[number][]>();
  for (const duration of durationRows) {
    const list = durationsByOption.get(duration.optionId) ?? [];
    list.push(duration);
    durationsByOption.set(duration.optionId, list);
  }

  return optionRows.map((row) => {
    const durations = durationsByOption.get(row.id) ?? [];
    return {
      _id: row.id,
      title: row.title,
      availableStock: row.fulfilMode === "manual" ? MANUAL_STOCK : row.available,
      subOptions: durations.map((duration) => ({
        _id: duration.id,
        title: duration.title,
        duration: duration.durationDays,
        price: centsToUsd(duration.priceCents),
      })),
      product: {
        _id: row.productId,
        title: row.productTitle,
        picture: row.picture,
        minQuantity: row.minQuantity,
        maxQuantity: row.maxQuantity,
      },
      priceCentsByDuration: new Map(durations.map((duration) => [duration.durationDays, duration.priceCents])),
      ...(withOrderTexts
        ? {
            orderTexts: {
              description: row.description ?? "",
              deliveryNotes: row.deliveryNotes ?? "",
              fulfilMode: row.fulfilMode,
            },
          }
        : {}),
    };
  });
}

function publicOption({ _id, title, availableStock, subOptions }: PricedOption): ProductOption {
  return { _id, title, availableStock, subOptions };
}

export function publicOptionWithProduct(option: PricedOption): OptionWithProduct {
  return { ...publicOption(option), product: option.product };
}

/** One active product, as the list gives it; 404 when it is not (or no longer) in the shop. */
export async function readProduct(db: Executor, productId: string): Promise<Product> {
  const [product] = await listProducts(db, productId);
  if (!product) throw notFound("Product not found");
  return product;
}

export async function listProductOptions(db: Executor, productId: string): Promise<ProductOption[]> {
  const options = await loadPricedOptions(db, { productId });
  // Only an empty answer needs telling apart "no options" from "no such product".
  if (options.length === 0) {
    const [product] = await db
      .select({ id: products.id })
      .from(products)
      .where(and(eq(products.id, productId), eq(products.active, true)));
    if (!product) throw notFound("Product not found");
  }
  return options.map(publicOption);
}

export async function readProductOption(db: Executor, optionId: string): Promise<OptionWithProduct> {
  const [option] = await loadPricedOptions(db, { optionIds: [optionId] });
  if (!option) throw notFound("Option not found");
  return publicOptionWithProduct(option);
}

/** What the product page shows: the product (only the fields its dialog uses) and its options, in one answer. */
export async function readProductPage(db: Executor, productId: string): Promise<ProductPage> {
  const [product, options] = await Promise.all([readProduct(db, productId), listProductOptions(db, productId)]);
  const { _id, title, picture, description, minQuantity, maxQuantity, rating } = product;
  return { product: { _id, title, picture, description, minQuantity, maxQuantity, rating }, options };
}
