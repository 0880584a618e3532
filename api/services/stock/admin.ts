import { type SQL, and, asc, desc, eq, ilike, inArray, ne, or, sql } from "drizzle-orm";
import {
  STOCK_IMPORT_MAX_ROWS,
  STOCK_PAGE_SIZE,
  STOCK_REPORT_MAX_LINES,
  type StockState,
} from "../../../contract/stock";
import type { FulfilMode } from "../../../contract/admin-catalogue";
import type {
  ImportReport,
  OptionStock,
  StockCounts,
  StockExport,
  StockOption,
  StockOptionPage,
  StockRemoved,
} from "../../../contract/answers/admin-stock";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import { productOptions, products, stockCredentials } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { credentialVault } from "../../credential-vault";
import { type StockLine, parseStockLines } from "./admin-import-lines";
import { type StaffActor, recordAudit } from "../staff/audit";
import type { NotifyDeps } from "../notifications/operator-notices";
import { containsPattern, pagerFor } from "../shared/paging";
import { fillWaitingReplacements } from "../support/replacement-delivery";
import { recheckStockLevels } from "./levels";
import { idsOf } from "../shared/rows";
import { accountMarkers, accountOfRow, credentialColumns, revealCredential, usernameIs } from "./secrets";

/*
 * The back office's stock (ADR 025): import, the list per option, removal and export of unsold credentials.
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

const INSERT_BATCH = 2000;

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

const optionLabel = (row: Pick<OptionRow, "productTitle" | "title">) => `${row.productTitle} — ${row.title}`;

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

async function findOption(db: Executor, optionId: string, lock = false): Promise<OptionRow> {
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

type NewStockRow = {
  optionId: string;
  secret: string;
  keyId: string;
  usernameLookup: string;
  accountLookup: string;
  seat: number;
  batchLabel: string;
  createdAt: Date;
};

/**
 * Inserts an import's rows as one JSON parameter per batch: a multi-row VALUES costs the query builder a check of
 * every column of every row, which was most of an import's CPU once each row carried its sealed value (ADR 056).
 */
async function insertStockRows(tx: Executor, rows: NewStockRow[]): Promise<void> {
  const records = JSON.stringify(
    rows.map((row) => ({
      id: newId(),
      option_id: row.optionId,
      secret: row.secret,
      key_id: row.keyId,
      username_lookup: row.usernameLookup,
      account_lookup: row.accountLookup,
      seat: row.seat,
      batch_label: row.batchLabel,
      created_at: row.createdAt.toISOString(),
    })),
  );
  await tx.execute(sql`
    insert into ${stockCredentials}
      (id, option_id, secret, key_id, username_lookup, account_lookup, seat, batch_label, created_at)
    select id, option_id, secret, key_id, username_lookup, account_lookup, seat, batch_label, created_at
    from json_to_recordset(${records}::json) as row (id text, option_id text, secret text, key_id text,
      username_lookup text, account_lookup text, seat int, batch_label text, created_at timestamptz)`);
}

/**
 * Adds pasted or uploaded credentials to an option, each account with the option's seats. A line is
 * refused as a duplicate when its account is already in the option's stock, whatever the state of its
 * rows (sold, replaced and removed included), or earlier in the same text. The option row is locked
 * first, so two imports of the same lines at once add each account once. Waiting replacement requests
 * are filled in the same transaction, before the new stock is visible to any checkout.
 */
export async function importStock(
  db: Database,
  actor: StaffActor,
  config: NotifyDeps,
  input: { optionId: string; text: string; label: string; now?: Date },
): Promise<ImportReport> {
  const now = input.now ?? new Date();
  // Every import is a batch that can be found and removed again, named or not: by default, by its time.
  const label = input.label || `${now.toISOString().slice(0, 16).replace("T", " ")} UTC`;
  const parsed = parseStockLines(input.text);
  if (parsed.credentials.length === 0 && parsed.invalid.length === 0) {
    throw badRequest(STOCK_MESSAGES.nothingToImport, { text: [STOCK_MESSAGES.nothingToImport] });
  }
  return db.transaction(async (tx) => {
    const option = await findOption(tx, input.optionId, true);
    // Accounts are compared by their keyed hash (ADR 056), or the plain pair of a row an upgrade has not encrypted yet.
    const known = new Set(
      (
        await tx
          .selectDistinct({ account: sql<string>`${accountOfRow}` })
          .from(stockCredentials)
          .where(eq(stockCredentials.optionId, option.id))
      ).map((row) => row.account),
    );
    const fresh: (StockLine & { accountLookup: string })[] = [];
    const duplicateLines: number[] = [];
    for (const credential of parsed.credentials) {
      const markers = accountMarkers(credential);
      if (markers.some((marker) => known.has(marker))) duplicateLines.push(credential.line);
      else {
        for (const marker of markers) known.add(marker);
        // The first marker is the account's hash under the current key, the one new rows carry.
        fresh.push({ ...credential, accountLookup: markers[0] });
      }
    }
    if (fresh.length * option.seats > STOCK_IMPORT_MAX_ROWS) {
      throw badRequest(STOCK_MESSAGES.tooManyRows, { text: [STOCK_MESSAGES.tooManyRows] });
    }
    const vault = credentialVault();
    const rows: NewStockRow[] = fresh.flatMap((credential) => {
      const usernameLookup = vault.usernameLookup(credential.username);
      // Every seat is its own ciphertext (its own nonce); the hashes are the account's.
      return Array.from({ length: option.seats }, (_, index) => ({
        optionId: option.id,
        ...vault.encrypt(credential),
        usernameLookup,
        accountLookup: credential.accountLookup,
        seat: index + 1,
        batchLabel: label,
        createdAt: now,
      }));
    });
    for (let start = 0; start < rows.length; start += INSERT_BATCH) {
      await insertStockRows(tx, rows.slice(start, start + INSERT_BATCH));
    }
    const replacementsFilled = await fillWaitingReplacements(tx, option.id, config, now);
    // New stock may lift the option over its low-stock threshold (re-arming the notice) or, all taken by
    // waiting replacements, leave it under.
    await recheckStockLevels(tx, config, [option.id], now);
    const report: ImportReport = {
      batchLabel: label,
      added: fresh.length,
      seats: rows.length,
      duplicate: { count: duplicateLines.length, lines: duplicateLines.slice(0, STOCK_REPORT_MAX_LINES) },
      invalid: { count: parsed.invalid.length, lines: parsed.invalid.slice(0, STOCK_REPORT_MAX_LINES) },
      skipped: parsed.skipped,
      replacementsFilled,
    };
    if (report.added > 0 || replacementsFilled > 0) {
      await recordAudit(tx, actor, {
        action: "stock.import",
        objectType: "option",
        objectId: option.id,
        objectLabel: optionLabel(option),
        after: {
          batchLabel: label,
          added: report.added,
          seats: report.seats,
          duplicates: report.duplicate.count,
          invalid: report.invalid.count,
          replacementsFilled,
        },
      });
    }
    return report;
  });
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
