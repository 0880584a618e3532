/**
 * `npm run credentials:rotate`: re-encrypts every credential under the first key of CREDENTIALS_KEY (ADR 056), in
 * batches, beside a running store on a PostgreSQL server; on the embedded database with the store stopped (the store
 * itself does the same at every start). Rows an upgrade left plain are encrypted first. Safe to stop and run again:
 * what is done stays done. It prints counts and key ids, never a key.
 *
 * A rotation: make a key (openssl rand -base64 32), give every instance CREDENTIALS_KEY=<new>,<old> and restart them,
 * run this, then set CREDENTIALS_KEY=<new> and restart again: the old key is retired.
 */
import { CredentialKeyError } from "./credential-vault";
import { runDatabaseCommand } from "./db/cli-session";
import {
  assertCredentialKeysPresent,
  credentialKeyUsage,
  encryptPlainStock,
  rotateCredentialBatch,
  untilDone,
} from "./services/stock/credential-keys";

await runDatabaseCommand(
  async ({ vault, database }) => {
    await assertCredentialKeysPresent(database.db, vault);
    const progress = (what: string) => (rows: number) => console.log(`${what}: ${rows}`);
    const encrypted = await untilDone(() => encryptPlainStock(database.db, vault), progress("encrypted"));
    const rotated = await untilDone(() => rotateCredentialBatch(database.db, vault), progress("re-encrypted"));
    const { plain, byKey } = await credentialKeyUsage(database.db);
    const elsewhere = [...byKey].filter(([keyId]) => keyId !== vault.current.id);
    if (plain > 0 || elsewhere.length > 0) {
      // Rows written meanwhile by an instance still on the old configuration: run again once all are restarted.
      console.error(
        `Not done: ${plain} plain and ${elsewhere.reduce((total, [, rows]) => total + rows, 0)} under other keys ` +
          "remain (an instance without the new key wrote them?): restart every instance with the new key, run it again",
      );
      process.exitCode = 1;
    } else {
      console.log(
        `Done: ${encrypted} encrypted, ${rotated} re-encrypted; all ${byKey.get(vault.current.id) ?? 0} credentials ` +
          `are under key ${vault.current.id}.` +
          (vault.keys.length > 1
            ? " Retire the old key: set CREDENTIALS_KEY to its first entry alone and restart every instance."
            : ""),
      );
    }
  },
  [CredentialKeyError],
);
