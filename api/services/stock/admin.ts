import { type SQL, and, asc, desc, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import { STOCK_IMPORT_MAX_ROWS, STOCK_PAGE_SIZE, type StockState } from "../../../contract/stock";
import type { FulfilMode } from "../../../contract/admin-catalogue";
import type {
  OptionStock,
  StockCounts,
  StockExport,
  StockOption,
  StockOptionPage,
  StockRemoved,
} from "../../../contract/answers/admin-stock";
import type { Database, Executor } from "../../db/client";
import { productOptions, products, stockCredentials } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import type { NotifyDeps } from "../notifications/operator-notices";
import { containsPattern, pagerFor } from "../shared/paging";
import { recheckStockLevels } from "./levels";
import { idsOf } from "../shared/rows";
import { accountOfRow, credentialColumns, revealCredential, usernameIs } from "./secrets";

/*
 * The back office's stock (ADR 025): the list per option, removal and export of unsold credentials; import
 * is admin-import.ts.
 * An account is sold to as many buyers as its option has seats: it is one stock row per seat, all with the
 * same username and password, so checkout, delivery and replacement handle each seat as a credential.
 * Rows staff remove are kept as `void`: never sold, still known, so the same lines are not imported again.
 * Nothing here ever writes a username or password to the audit log.
 */

export const STOCK_MESSAGES = {
  optionNotFound: "Option not found",
  nothingToImport: "Paste the credentials or choose a file: one username:password per line",
  tooManyRows: `One import adds at most ${STOCK_IMPORT_MAX_ROWS.toLocaleString("en-US")} seats: split the list`,
  nothingToRemove: "Nothing was removed: these credentials have no unsold seats left",
  chooseWhatToRemove: "Choose the credentials to remove, or a batch",
} as const;

const countWhere = (condition: SQL) => sql<number>`count(*) filter (where ${condition})`.mapWith(Number);
const stateIs = (state: StockState | "void") => eq(stockCredentials.status, state);

const countColumns = {
  free: countWhere(stateIs("available")),
  reserved: countWhere(stateIs("reserved")),
  delivered: countWhere(stateIs("delivered")),
  replaced: countWhere(stateIs("replaced")),
  removed: countWhere(stateIs("void")),
  accounts: sql<number>`count(distinct ${accountOfRow}) filter (where ${ne(stockCredentials.status, "void")})`.mapWith(
    Number,
  ),
};
const NO_STOCK: StockCounts = { free: 0, reserved: 0, delivered: 0, replaced: 0, removed: 0, accounts: 0 };

type OptionRow = {
  id: string;
  title: string;
  active: boolean;
  seats: number;
  lowStockThreshold: number;
  productId: string;
  productTitle: string;
  productActive: boolean;
  fulfilMode: FulfilMode;
};

const optionColumns = {
  id: productOptions.id,
  title: productOptions.title,
  active: productOptions.active,
  seats: productOptions.seats,
  lowStockThreshold: productOptions.lowStockThreshold,
  productId: products.id,
  productTitle: products.title,
  productActive: products.active,
  fulfilMode: products.fulfilMode,
};

function optionView(row: OptionRow, stock: StockCounts): StockOption {
  return {
    _id: row.id,
    title: row.title,
    active: row.active,
    seats: row.seats,
    lowStockThreshold: row.lowStockThreshold,
    low: row.lowStockThreshold > 0 && stock.free < row.lowStockThreshold,
    product: { _id: row.productId, title: row.productTitle, active: row.productActive, fulfilMode: row.fulfilMode },
    stock,
  };
}

export const optionLabel = (row: Pick<OptionRow, "productTitle" | "title">) => `${row.productTitle} — ${row.title}`;

async function countsByOption(db: Executor, optionIds: string[]): Promise<Map<string, StockCounts>> {
  if (optionIds.length === 0) return new Map();
  const rows = await db
    .select({ optionId: stockCredentials.optionId, ...countColumns })
    .from(stockCredentials)
    .where(inArray(stockCredentials.optionId, optionIds))
    .groupBy(stockCredentials.optionId);
  return new Map(rows.map(({ optionId, ...counts }) => [optionId, counts]));
}

/** Every option of every product (hidden ones too) with its stock, in shop order; `search` matches either title. */
export async function listStockOptions(
  db: Executor,
  query: { page: number; search: string },
): Promise<StockOptionPage> {
  const where = query.search
    ? or(
        ilike(products.title, containsPattern(query.search)),
        ilike(productOptions.title, containsPattern(query.search)),
      )
    : undefined;
  const [{ total }] = await db
    .select({ total: sql<number>`count(*)`.mapWith(Number) })
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(where);
  const rows = await db
    .select(optionColumns)
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(where)
    .orderBy(
      asc(products.position),
      asc(products.createdAt),
      asc(products.id),
      asc(productOptions.position),
      asc(productOptions.createdAt),
      asc(productOptions.id),
    )
    .limit(STOCK_PAGE_SIZE)
    .offset((query.page - 1) * STOCK_PAGE_SIZE);
  const counts = await countsByOption(db, idsOf(rows));
  return {
    records: rows.map((row) => optionView(row, counts.get(row.id) ?? NO_STOCK)),
    pager: pagerFor(query.page, total, STOCK_PAGE_SIZE),
  };
}

export async function findOption(db: Executor, optionId: string, lock = false): Promise<OptionRow> {
  const query = db
    .select(optionColumns)
    .from(productOptions)
    .innerJoin(products, eq(products.id, productOptions.productId))
    .where(eq(productOptions.id, optionId));
  // NO KEY UPDATE: imports of the option take turns, while checkouts (whose order lines only
  // reference the option, a KEY SHARE lock) go on.
  const [option] = lock ? await query.for("no key update", { of: productOptions }) : await query;
  if (!option) throw notFound(STOCK_MESSAGES.optionNotFound);
  return option;
}

/** Empty strings filter nothing. */
export type OptionStockQuery = { page: number; search: string; state: StockState | ""; batch: string };

/**
 * One option's stock, an account a row with each seat's state, newest first, STOCK_PAGE_SIZE a page.
 * Passwords stay out of it (the export has them). Accounts staff removed entirely are left out. The search is
 * an exact username (in any letter case): usernames are stored encrypted, found by their keyed hash (ADR 056).
 */
export async function readOptionStock(db: Executor, optionId: string, query: OptionStockQuery): Promise<OptionStock> {
  const option = await findOption(db, optionId);
  const filters: SQL[] = [eq(stockCredentials.optionId, optionId)];
  if (query.search) filters.push(usernameIs(query.search));
  if (query.batch) filters.push(eq(stockCredentials.batchLabel, query.batch));
  const having = and(
    sql`bool_or(${ne(stockCredentials.status, "void")})`,
    query.state ? sql`bool_or(${stateIs(query.state)})` : undefined,
  );
  const accounts = db
    .select({
      id: sql<string>`min(${stockCredentials.id})`.as("id"),
      batchLabel: sql<string>`min(${stockCredentials.batchLabel})`.as("batch_label"),
      addedAt: sql<Date>`min(${stockCredentials.createdAt})`.as("added_at"),
      seats: sql<{ seat: number; state: string }[]>`json_agg(json_build_object(
        'seat', ${stockCredentials.seat}, 'state', ${stockCredentials.status}
      ) order by ${stockCredentials.seat}, ${stockCredentials.createdAt})`.as("seats"),
    })
    .from(stockCredentials)
    .where(and(...filters))
    .groupBy(accountOfRow)
    .having(having)
    .as("accounts");
  const [[{ total }], rows, [counts], batches] = await Promise.all([
    db.select({ total: sql<number>`count(*)`.mapWith(Number) }).from(accounts),
    db
      .select()
      .from(accounts)
      .orderBy(desc(accounts.addedAt), asc(accounts.id))
      .limit(STOCK_PAGE_SIZE)
      .offset((query.page - 1) * STOCK_PAGE_SIZE),
    db.select(countColumns).from(stockCredentials).where(eq(stockCredentials.optionId, optionId)),
    db
      .select({ label: stockCredentials.batchLabel, free: countWhere(stateIs("available")) })
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, optionId), ne(stockCredentials.status, "void")))
      .groupBy(stockCredentials.batchLabel)
      .orderBy(asc(stockCredentials.batchLabel)),
  ]);
  // Only the page's usernames are decrypted: one row of each account names it.
  const named =
    rows.length === 0
      ? []
      : await db
          .select({ id: stockCredentials.id, ...credentialColumns })
          .from(stockCredentials)
          .where(inArray(stockCredentials.id, idsOf(rows)));
  const usernames = new Map(named.map((row) => [row.id, revealCredential(row).username]));
  return {
    option: optionView(option, counts ?? NO_STOCK),
    batches,
    records: rows.map((row) => ({
      _id: row.id,
      username: usernames.get(row.id) ?? "",
      batchLabel: row.batchLabel,
      addedAt: new Date(row.addedAt).toISOString(),
      seats: row.seats.map(({ seat, state }) => ({
        seat,
        state: state === "void" ? "removed" : (state as StockState),
      })),
    })),
    pager: pagerFor(query.page, total, STOCK_PAGE_SIZE),
  };
}

/**
 * Takes unsold seats off sale: every available seat of the chosen accounts (named by any of their rows),
 * or of a whole batch. Sold seats stay as they are. The rows become `void` by one conditional UPDATE, so a
 * checkout claiming the same seat at once either gets it first or finds it gone.
 */
export async function removeStock(
  db: Database,
  actor: StaffActor,
  config: NotifyDeps,
  input: { optionId: string; accounts?: string[]; batchLabel?: string },
): Promise<StockRemoved> {
  return db.transaction(async (tx) => {
    const option = await findOption(tx, input.optionId);
    let which: SQL;
    if (input.accounts?.length) {
      const named = await tx
        .selectDistinct({ account: sql<string>`${accountOfRow}` })
        .from(stockCredentials)
        .where(and(eq(stockCredentials.optionId, option.id), inArray(stockCredentials.id, input.accounts)));
      if (named.length === 0) throw conflict(STOCK_MESSAGES.nothingToRemove);
      which = sql`${accountOfRow} in (${sql.join(
        named.map((row) => row.account),
        sql`, `,
      )})`;
    } else if (input.batchLabel !== undefined) {
      which = eq(stockCredentials.batchLabel, input.batchLabel);
    } else {
      throw badRequest(STOCK_MESSAGES.chooseWhatToRemove);
    }
    const removed = await tx
      .update(stockCredentials)
      .set({ status: "void" })
      .where(and(eq(stockCredentials.optionId, option.id), stateIs("available"), which))
      .returning({ account: accountOfRow });
    if (removed.length === 0) throw conflict(STOCK_MESSAGES.nothingToRemove);
    await recheckStockLevels(tx, config, [option.id]);
    const accounts = new Set(removed.map((row) => row.account)).size;
    await recordAudit(tx, actor, {
      action: "stock.remove",
      objectType: "option",
      objectId: option.id,
      objectLabel: optionLabel(option),
      after: {
        accounts,
        seats: removed.length,
        ...(input.accounts?.length ? {} : { batchLabel: input.batchLabel }),
      },
    });
    return { accounts, seats: removed.length };
  });
}

/**
 * The option's unsold accounts (at least one free seat), oldest first, as `username:password` lines: the
 * import's format, so the file can be imported elsewhere. Audited, since it hands out credentials.
 */
export async function exportStock(db: Database, actor: StaffActor, optionId: string): Promise<StockExport> {
  return db.transaction(async (tx) => {
    const option = await findOption(tx, optionId);
    // One row per account (its oldest seat), decrypted here: the export is the one place all of them leave.
    const sealed = await tx
      .selectDistinctOn([accountOfRow], {
        id: stockCredentials.id,
        createdAt: stockCredentials.createdAt,
        ...credentialColumns,
      })
      .from(stockCredentials)
      .where(and(eq(stockCredentials.optionId, option.id), stateIs("available")))
      .orderBy(accountOfRow, asc(stockCredentials.createdAt), asc(stockCredentials.id));
    sealed.sort((a, b) => a.createdAt.getTime() - b.createdAt.getTime() || (a.id < b.id ? -1 : a.id > b.id ? 1 : 0));
    const rows = sealed.map(revealCredential);
    await recordAudit(tx, actor, {
      action: "stock.export",
      objectType: "option",
      objectId: option.id,
      objectLabel: optionLabel(option),
      after: { accounts: rows.length },
    });
    const slug = optionLabel(option)
      .toLowerCase()
      .replace(/[^a-z0-9]+/g, "-")
      .replace(/^-|-$/g, "")
      .slice(0, 60);
    return {
      text: rows.map((row) => `${row.username}:${row.password}\n`).join(""),
      accounts: rows.length,
      filename: `stock-${slug || "option"}-${new Date().toISOString().slice(0, 10)}.txt`,
    };
  });
}
