import { mkdirSync } from "node:fs";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import * as schema from "./schema";

export type Database = PgDatabase<PgQueryResultHKT, typeof schema>;
export type Transaction = Parameters<Parameters<Database["transaction"]>[0]>[0];
/** Services take either, so a caller can compose them inside one transaction. */
export type Executor = Database | Transaction;

export type DatabaseHandle = {
  db: Database;
  kind: "pglite" | "postgres";
  close(): Promise<void>;
};

const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any fixed number: instances starting together take turns migrating. */
const MIGRATION_LOCK = 740_0001;

/**
 * `location` is a postgres:// URL, "memory://" (tests) or a folder for the embedded database.
 * Migrations are applied before the handle is returned.
 */
export async function openDatabase(location: string): Promise<DatabaseHandle> {
  if (/^postgres(ql)?:\/\//.test(location)) return openPostgres(location);
  return openPglite(location);
}

async function openPglite(location: string): Promise<DatabaseHandle> {
  if (location !== "memory://") mkdirSync(path.dirname(location), { recursive: true });
  const client = location === "memory://" ? new PGlite() : new PGlite(location);
  const db = drizzlePglite(client, { schema });
  await migratePglite(db, { migrationsFolder });
  return {
    db: db as unknown as Database,
    kind: "pglite",
    close: () => client.close(),
  };
}

async function openPostgres(url: string): Promise<DatabaseHandle> {
  const migrator = postgres(url, { max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(migrator), { migrationsFolder });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } finally {
    await migrator.end();
  }
  const client = postgres(url, { max: 10, onnotice: () => {}, idle_timeout: 30 });
  const db = drizzlePostgres(client, { schema });
  return {
    db: db as unknown as Database,
    kind: "postgres",
    close: () => client.end({ timeout: 5 }),
  };
}

/** Where the embedded database lives inside DATA_DIR. */
export function embeddedDatabasePath(dataDir: string): string {
  return path.join(dataDir, "pglite");
}
