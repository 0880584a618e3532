import { asc, count, inArray, isNotNull, isNull, sql } from "drizzle-orm";
import { type SealedCredential, CredentialKeyError, credentialVault } from "../../credential-vault";
import type { Database } from "../../db/client";
import { stockCredentials } from "../../db/schema";

/*
 * Bringing every stock row under the current CREDENTIALS_KEY (ADR 056), in small batches while the store serves:
 * the rows an upgrade found plain (encryptPlainStock, run by every instance at start), and the rows of a retiring key
 * (rotateCredentialKeys, `npm run credentials:rotate`). A batch reads its rows without locking them and writes them
 * back by one UPDATE that only takes a row still in the state it read, so a checkout is never kept waiting longer
 * than that statement, two instances doing it at once change each row once, and a killed run resumes where it
 * stopped (what is done is no longer plain, or no longer under the old key).
 */

/** Small enough that one UPDATE holds its rows for a few milliseconds. */
export const CREDENTIAL_BATCH_ROWS = 200;

/** A row's new sealed value, and the key it was read under (null: it was plain). */
type Resealed = { id: string; previousKeyId: string | null } & SealedCredential;

/** Writes sealed values over the rows still under the key they were read with: a second worker may have been quicker. */
async function writeSealed(db: Database, rows: Resealed[]): Promise<void> {
  if (rows.length === 0) return;
  const values = sql.join(
    rows.map(
      (row) =>
        sql`(${row.id}::text, ${row.previousKeyId}::text, ${row.secret}::text, ${row.keyId}::text, ${row.usernameLookup}::text, ${row.accountLookup}::text)`,
    ),
    sql`, `,
  );
  await db.execute(sql`
    update ${stockCredentials} as stock
    set secret = sealed.secret, key_id = sealed.key_id, username_lookup = sealed.username_lookup,
        account_lookup = sealed.account_lookup, username = null, password = null
    from (values ${values}) as sealed (id, previous_key_id, secret, key_id, username_lookup, account_lookup)
    where stock.id = sealed.id and stock.key_id is not distinct from sealed.previous_key_id`);
}

/** Encrypts one batch of rows written before ADR 056; answers how many it read (0: none is left). */
export async function encryptPlainStock(db: Database, vault = credentialVault()): Promise<number> {
  const plain = await db
    .select({ id: stockCredentials.id, username: stockCredentials.username, password: stockCredentials.password })
    .from(stockCredentials)
    .where(isNull(stockCredentials.secret))
    .orderBy(asc(stockCredentials.id))
    .limit(CREDENTIAL_BATCH_ROWS);
  await writeSealed(
    db,
    plain.map((row) => ({
      id: row.id,
      previousKeyId: null,
      ...vault.seal({ username: row.username ?? "", password: row.password ?? "" }),
    })),
  );
  return plain.length;
}

/** Re-encrypts one batch of rows sealed under an older key of CREDENTIALS_KEY; answers how many it read. */
export async function rotateCredentialBatch(db: Database, vault = credentialVault()): Promise<number> {
  const older = vault.keys.slice(1).map((key) => key.id);
  if (older.length === 0) return 0;
  const rows = await db
    .select({ id: stockCredentials.id, secret: stockCredentials.secret, keyId: stockCredentials.keyId })
    .from(stockCredentials)
    .where(inArray(stockCredentials.keyId, older))
    .orderBy(asc(stockCredentials.id))
    .limit(CREDENTIAL_BATCH_ROWS);
  await writeSealed(
    db,
    rows.map((row) => ({ id: row.id, previousKeyId: row.keyId, ...vault.seal(vault.open(row.secret!, row.keyId!)) })),
  );
  return rows.length;
}

/** How many rows each key seals, and how many are still plain. */
export async function credentialKeyUsage(db: Database): Promise<{ plain: number; byKey: Map<string, number> }> {
  const [{ plain }] = await db.select({ plain: count() }).from(stockCredentials).where(isNull(stockCredentials.secret));
  const byKey = await db
    .select({ keyId: stockCredentials.keyId, rows: count() })
    .from(stockCredentials)
    .where(isNotNull(stockCredentials.keyId))
    .groupBy(stockCredentials.keyId);
  return { plain, byKey: new Map(byKey.map((row) => [row.keyId!, row.rows])) };
}

/**
 * Refuses to start when some goods are sealed under a key CREDENTIALS_KEY does not hold: every order showing them
 * would fail. One line, naming the key's id (never a key).
 */
export async function assertCredentialKeysPresent(db: Database, vault = credentialVault()): Promise<void> {
  const { byKey } = await credentialKeyUsage(db);
  const known = new Set(vault.keys.map((key) => key.id));
  const missing = [...byKey].filter(([keyId]) => !known.has(keyId));
  if (missing.length === 0) return;
  const rows = missing.reduce((total, [, count]) => total + count, 0);
  throw new CredentialKeyError(
    `CREDENTIALS_KEY lacks key ${missing.map(([keyId]) => keyId).join(", ")}, under which ${rows} credential(s) are ` +
      "sealed: give the store that key again (CREDENTIALS_KEY=new,old during a rotation); without it they are lost",
  );
}

/** Runs `batch` until it finds nothing to do; answers how many rows it handled. */
export async function untilDone(batch: () => Promise<number>, onBatch?: (rows: number) => void): Promise<number> {
  let total = 0;
  for (;;) {
    const rows = await batch();
    if (rows === 0) return total;
    total += rows;
    onBatch?.(total);
  }
}
