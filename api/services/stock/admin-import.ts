import { eq, sql } from "drizzle-orm";
import { STOCK_IMPORT_MAX_ROWS, STOCK_REPORT_MAX_LINES } from "../../../contract/stock";
import type { ImportReport } from "../../../contract/answers/admin-stock";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import { stockCredentials } from "../../db/schema";
import { badRequest } from "../../errors";
import { credentialVault } from "../../credential-vault";
import { type StockLine, parseStockLines } from "./admin-import-lines";
import { type StaffActor, recordAudit } from "../staff/audit";
import type { NotifyDeps } from "../notifications/operator-notices";
import { fillWaitingReplacements } from "../support/replacement-delivery";
import { recheckStockLevels } from "./levels";
import { accountMarkers, accountOfRow } from "./secrets";
import { STOCK_MESSAGES, findOption, optionLabel } from "./admin";

/*
 * The import of credentials into an option's stock (ADR 025, ADR 056): the pasted or uploaded lines are
 * parsed (admin-import-lines.ts), sealed, and added one row per seat.
 */

const INSERT_BATCH = 2000;

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
