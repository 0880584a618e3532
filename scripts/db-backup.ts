/**
 * `npm run db:backup -- --out FILE [--force]`: one backup file of the configured database (ADR 045). The
 * embedded database only while the store is stopped; a PostgreSQL server while it runs (pg_dump).
 */
import { BackupError, backupDatabase } from "../api/db/backup";
import { EmbeddedDatabaseInUseError } from "../api/db/embedded-lock";
import { ConfigError, loadConfig } from "../api/config";

const args = process.argv.slice(2);
const outAt = args.indexOf("--out");
const out = outAt >= 0 ? args[outAt + 1] : undefined;
try {
  if (!out || out.startsWith("--")) throw new BackupError("Usage: npm run db:backup -- --out FILE [--force]");
  const started = performance.now();
  const { kind } = await backupDatabase(loadConfig(), out, { force: args.includes("--force") });
  console.log(
    `Backed up the ${kind === "pglite" ? "embedded" : "PostgreSQL"} database to ${out} in ${Math.round(performance.now() - started)} ms.`,
  );
} catch (error) {
  if (!(error instanceof BackupError || error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError)) {
    throw error;
  }
  console.error(error.message);
  process.exit(1);
}
