import { type SQL, sql } from "drizzle-orm";
import { type PlainCredential, credentialVault } from "../../credential-vault";
import { stockCredentials } from "../../db/schema";

/*
 * Reading and writing the goods of a stock row (ADR 056). A row holds its credential sealed (secret, key_id and the
 * keyed hashes); a row written before the upgrade holds it plain until the store encrypts it (encryptPlainStock),
 * so every reader takes either form, and every comparison of accounts matches either.
 */

/** The columns a credential is read from: select them with a row, then revealCredential(row). */
export const credentialColumns = {
  secret: stockCredentials.secret,
  keyId: stockCredentials.keyId,
  plainUsername: stockCredentials.username,
  plainPassword: stockCredentials.password,
};

export type CredentialColumns = {
  secret: string | null;
  keyId: string | null;
  plainUsername: string | null;
  plainPassword: string | null;
};

export function revealCredential(row: CredentialColumns): PlainCredential {
  if (row.secret !== null && row.keyId !== null) return credentialVault().open(row.secret, row.keyId);
  return { username: row.plainUsername ?? "", password: row.plainPassword ?? "" };
}

/** The columns of a new row for this credential: sealed under the current key, no plain value. */
export function sealedColumns(credential: PlainCredential) {
  return { ...credentialVault().seal(credential), username: null, password: null };
}

/** A row's account as SQL: its keyed hash, or for a row not yet encrypted its plain pair (plainAccountMarker). */
export const accountOfRow: SQL = sql`coalesce(${stockCredentials.accountLookup}, 'plain:' || lower(${stockCredentials.username}) || chr(1) || ${stockCredentials.password})`;

const plainAccountMarker = (credential: PlainCredential) =>
  `plain:${credential.username.toLowerCase()}\u0001${credential.password}`;

/** Every value accountOfRow may have for this account: its hash under each key, and its plain form. */
export function accountMarkers(credential: PlainCredential): string[] {
  return [...credentialVault().accountLookups(credential), plainAccountMarker(credential)];
}

/** Rows of the same account as these credentials (any key, or plain). */
export function amongAccounts(credentials: PlainCredential[]): SQL {
  const markers = credentials.flatMap(accountMarkers);
  return markers.length === 0 ? sql`false` : sql`${accountOfRow} in (${sql.join(markers, sql`, `)})`;
}

/** Rows whose username is exactly this one, in any letter case: staff's search. */
export function usernameIs(username: string): SQL {
  const lookups = credentialVault().usernameLookups(username);
  return sql`(${stockCredentials.usernameLookup} in (${sql.join(lookups, sql`, `)}) or (${stockCredentials.secret} is null and lower(${stockCredentials.username}) = ${username.trim().toLowerCase()}))`;
}

/** The credential of a whole stock row (`select()` of the table). */
export const revealStockRow = (row: typeof stockCredentials.$inferSelect): PlainCredential =>
  revealCredential({ secret: row.secret, keyId: row.keyId, plainUsername: row.username, plainPassword: row.password });
