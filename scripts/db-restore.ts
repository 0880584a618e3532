/**
 * `npm run db:restore -- FILE [--force]`: restores a backup made by `npm run db:backup` into the configured
 * database, which must be empty unless --force (ADR 045). The embedded database only while the store is stopped.
 */
import { BackupError, restoreDatabase } from "../api/db/backup";
import { EmbeddedDatabaseInUseError } from "../api/db/embedded-lock";
import { ConfigError, loadConfig } from "../api/config";

const args = process.argv.slice(2);
const file = args.find((arg) => !arg.startsWith("--"));
try {
  if (!file) throw new BackupError("Usage: npm run db:restore -- FILE [--force]");
  const started = performance.now();
  const { kind, replaced } = await restoreDatabase(loadConfig(), file, { force: args.includes("--force") });
  console.log(
    `Restored ${file} into the ${kind === "pglite" ? "embedded" : "PostgreSQL"} database in ${Math.round(performance.now() - started)} ms.` +
      (replaced ? ` The database it replaced is kept in ${replaced}.` : "") +
      " Migrations newer than the backup run when the store starts.",
  );
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError)) {
    throw error;
  }
  console.error(error.message);
  process.exit(1);
}
