import { spawn } from "node:child_process";
import {
  chmodSync,
  existsSync,
  openSync,
  readSync,
  closeSync,
  readFileSync,
  readdirSync,
  renameSync,
  rmSync,
  writeFileSync,
} from "node:fs";
import { PGlite } from "@electric-sql/pglite";
import postgres from "postgres";
import type { Config } from "../config";
import { embeddedDatabasePath } from "./client";
import { claimEmbeddedDatabase } from "./embedded-lock";
import { grantAppRole } from "./roles";

/*
 * Backups with each database's own tools (issue 30, ADR 045). The embedded database: PGlite's dump of its data
 * folder, a gzipped tar, taken with the store stopped (the DATA_DIR/store.pid lock of ADR 038 says whether it
 * runs). A PostgreSQL server: pg_dump's custom format, a consistent snapshot taken while the store runs, and
 * pg_restore. Both run as the role that owns the schema (DATABASE_MIGRATION_URL when set): it can read every
 * table and recreate every object, where the app role owns nothing (ADR 036).
 */

export class BackupError extends Error {}

type BackupConfig = Pick<Config, "dataDir" | "databaseUrl" | "databaseMigrationUrl">;

/** Read and write for the file's owner only. */
const PRIVATE_FILE = 0o600;

/** A pg_dump custom-format archive starts with these bytes; PGlite's dump is gzip (1f 8b). */
const PG_DUMP_MAGIC = "PGDMP";
const GZIP_MAGIC = [0x1f, 0x8b];

/** The connection backups and restores use: the schema owner's when there is one. */
function ownerUrl(config: BackupConfig): string {
  return config.databaseMigrationUrl ?? config.databaseUrl!;
}

/** Runs a PostgreSQL client tool with the password out of its command line (where `ps` would show it). */
function runTool(tool: string, args: string[], url: string): Promise<void> {
  const parsed = new URL(url);
  const password = decodeURIComponent(parsed.password);
  parsed.password = "";
  return new Promise((resolve, reject) => {
    const child = spawn(tool, [...args, `--dbname=${parsed.toString()}`], {
      env: { ...process.env, ...(password ? { PGPASSWORD: password } : {}) },
      stdio: ["ignore", "inherit", "pipe"],
    });
    let stderr = "";
    child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString("utf8")));
    child.on("error", (error: NodeJS.ErrnoException) =>
      reject(
        error.code === "ENOENT"
          ? new BackupError(
              `${tool} was not found: install PostgreSQL's client tools (Debian: apt-get install postgresql-client), ` +
                "of the server's major version or newer",
            )
          : error,
      ),
    );
    child.on("exit", (code) =>
      code === 0 ? resolve() : reject(new BackupError(`${tool} failed (exit ${code}): ${stderr.trim()}`)),
    );
  });
}

function firstBytes(file: string, count: number): Buffer {
  const handle = openSync(file, "r");
  try {
    const buffer = Buffer.alloc(count);
    const read = readSync(handle, buffer, 0, count, 0);
    return buffer.subarray(0, read);
  } finally {
    closeSync(handle);
  }
}

/**
 * Writes through a temporary name, so a failed backup never leaves a truncated file under the real one. The file
 * is the owner's alone (0600) whatever the umask: it is made so before pg_dump writes into it (which keeps an
 * existing file's mode), and set so again before it takes the real name.
 */
async function writeAtomically(out: string, write: (temporary: string) => Promise<void>) {
  const temporary = `${out}.partial-${process.pid}`;
  try {
    closeSync(openSync(temporary, "w", PRIVATE_FILE));
    chmodSync(temporary, PRIVATE_FILE);
    await write(temporary);
    chmodSync(temporary, PRIVATE_FILE);
    renameSync(temporary, out);
  } finally {
    rmSync(temporary, { force: true });
  }
}

/** Writes one backup file of the configured database to `out`; an existing file is kept unless `force`. */
export async function backupDatabase(config: BackupConfig, out: string, options: { force?: boolean } = {}) {
  if (existsSync(out) && !options.force) throw new BackupError(`${out} exists: choose another name, or add --force`);
  if (config.databaseUrl) {
    await writeAtomically(out, (temporary) =>
      runTool("pg_dump", ["--format=custom", "--no-owner", "--no-privileges", `--file=${temporary}`], ownerUrl(config)),
    ).catch((error: unknown) => {
      // The app role of ADR 036 may not read drizzle's sequence (nor anything a later grant leaves out).
      if (error instanceof BackupError && /permission denied/.test(error.message) && !config.databaseMigrationUrl) {
        throw new BackupError(
          `${error.message}\nBack up as the role that owns the schema: set DATABASE_MIGRATION_URL to its connection.`,
        );
      }
      throw error;
    });
    return { kind: "postgres" as const };
  }
  const folder = embeddedDatabasePath(config.dataDir);
  if (!existsSync(folder) || readdirSync(folder).length === 0) {
    throw new BackupError(`There is no embedded database in ${folder} (is DATA_DIR right?)`);
  }
  // Throws EmbeddedDatabaseInUseError, naming the store's process, while the store runs.
  const release = claimEmbeddedDatabase(config.dataDir);
  try {
    const database = new PGlite(folder);
    try {
      await database.exec("checkpoint");
      const dump = await database.dumpDataDir("gzip");
      const bytes = Buffer.from(await dump.arrayBuffer());
      await writeAtomically(out, async (temporary) => writeFileSync(temporary, bytes));
    } finally {
      await database.close();
    }
  } finally {
    release();
  }
  return { kind: "pglite" as const };
}

/** Tables (and so any data) in the schemas the store uses, on the server at `url`. */
async function tablesOn(url: string): Promise<number> {
  const sql = postgres(url, { max: 1, onnotice: () => {} });
  try {
    const [row] = await sql`select count(*)::int as n from pg_tables where schemaname in ('public', 'drizzle')`;
    return row.n as number;
  } finally {
    await sql.end();
  }
}

/**
 * Restores a backup of `file` into the configured database, which must be empty (no folder or an empty one;
 * a PostgreSQL database without tables) unless `force`. On PostgreSQL the role of DATABASE_URL is granted its
 * rights again when the schema has an owner role of its own (as `npm run db:roles` does).
 */
export async function restoreDatabase(config: BackupConfig, file: string, options: { force?: boolean } = {}) {
  if (!existsSync(file)) throw new BackupError(`${file} does not exist`);
  const head = firstBytes(file, PG_DUMP_MAGIC.length);
  const isPgDump = head.toString("latin1") === PG_DUMP_MAGIC;
  const isPgliteDump = head[0] === GZIP_MAGIC[0] && head[1] === GZIP_MAGIC[1];
  if (config.databaseUrl) {
    if (!isPgDump) {
      throw new BackupError(
        `${file} is not a PostgreSQL server backup (pg_dump's custom format)${isPgliteDump ? ": it is an embedded database's, restore it without DATABASE_URL" : ""}`,
      );
    }
    const url = ownerUrl(config);
    const existing = await tablesOn(url);
    if (existing > 0 && !options.force) {
      throw new BackupError(
        `The database already holds ${existing} tables: restore into an empty database, or add --force to replace the objects the backup holds`,
      );
    }
    await runTool(
      "pg_restore",
      [
        "--no-owner",
        "--no-privileges",
        "--single-transaction",
        "--exit-on-error",
        ...(existing > 0 ? ["--clean", "--if-exists"] : []),
        file,
      ],
      url,
    );
    const appRole = decodeURIComponent(new URL(config.databaseUrl).username);
    const owner = config.databaseMigrationUrl && decodeURIComponent(new URL(config.databaseMigrationUrl).username);
    if (owner && appRole && appRole !== owner) {
      const sql = postgres(url, { max: 1, onnotice: () => {} });
      await grantAppRole(sql, appRole).finally(() => sql.end());
    }
    return { kind: "postgres" as const, replaced: undefined };
  }
  if (!isPgliteDump) {
    throw new BackupError(
      `${file} is not an embedded database backup${isPgDump ? ": it is a PostgreSQL server's, restore it with DATABASE_URL set" : ""}`,
    );
  }
  const folder = embeddedDatabasePath(config.dataDir);
  const release = claimEmbeddedDatabase(config.dataDir);
  let replaced: string | undefined;
  try {
    if (existsSync(folder) && readdirSync(folder).length > 0) {
      if (!options.force) {
        throw new BackupError(`${folder} already holds a database: restore into an empty DATA_DIR, or add --force`);
      }
      // Kept beside, not deleted: a mistaken --force must not lose the only copy.
      replaced = `${folder}.replaced-${new Date().toISOString().replace(/[:.]/g, "-")}`;
      renameSync(folder, replaced);
    }
    try {
      const database = new PGlite(folder, { loadDataDir: new Blob([readFileSync(file)]) });
      try {
        await database.query("select 1");
      } finally {
        await database.close();
      }
    } catch (error) {
      // A file that does not open leaves the folder as it was: empty, or the replaced database back in place.
      rmSync(folder, { recursive: true, force: true });
      if (replaced) renameSync(replaced, folder);
      throw new BackupError(`${file} could not be restored: ${(error as Error).message}`);
    }
  } finally {
    release();
  }
  return { kind: "pglite" as const, replaced };
}
