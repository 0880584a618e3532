import path from "node:path";
import { fileURLToPath } from "node:url";
import { PGlite } from "@electric-sql/pglite";
import type { PgDatabase, PgQueryResultHKT } from "drizzle-orm/pg-core";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import type { Config } from "../config";
import { claimEmbeddedDatabase } from "./embedded-lock";
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

export const migrationsFolder = fileURLToPath(new URL("./migrations", import.meta.url));
/** Any fixed number: names the advisory lock migrations take. */
const MIGRATION_LOCK = 740_0001;

/**
 * `location` is a postgres:// URL, "memory://" (tests) or a folder for the embedded database.
 * Migrations are applied before the handle is returned: on PostgreSQL through `migrationUrl` when given
 * (the role that owns the schema, while `location` is a role that owns nothing: ADR 036).
 */
export async function openDatabase(location: string, options: OpenOptions = {}): Promise<DatabaseHandle> {
  if (/^postgres(ql)?:\/\//.test(location)) return openPostgres(location, options);
  return openPglite(location, options);
}

type OpenOptions = {
  migrationUrl?: string;
  /** Told every statement the application sends, transactions' included (tests count a checkout's statements). */
  onQuery?: (statement: string) => void;
  /**
   * An in-memory PGlite starts from this copy of a data folder (PGlite's dumpDataDir) instead of running initdb:
   * 0.3 s instead of 2 s, for tests, which open a fresh database per file (tests/support/database.ts).
   */
  startFrom?: Blob;
};

const queryLogger = (onQuery: OpenOptions["onQuery"]) =>
  onQuery && { logQuery: (statement: string) => onQuery(statement) };

/** The database the configuration names: DATABASE_URL (migrated through DATABASE_MIGRATION_URL), or the embedded one. */
export function openConfiguredDatabase(
  config: Pick<Config, "databaseUrl" | "databaseMigrationUrl" | "dataDir">,
): Promise<DatabaseHandle> {
  return openDatabase(config.databaseUrl ?? embeddedDatabasePath(config.dataDir), {
    migrationUrl: config.databaseMigrationUrl,
  });
}

async function openPglite(location: string, options: OpenOptions): Promise<DatabaseHandle> {
  const inMemory = location === "memory://";
  // One process at a time on a folder: another one holding it makes this throw EmbeddedDatabaseInUseError.
  const release = inMemory ? () => {} : claimEmbeddedDatabase(path.dirname(location));
  try {
    const client = inMemory ? new PGlite({ loadDataDir: options.startFrom }) : new PGlite(location);
    const db = drizzlePglite(client, { schema, logger: queryLogger(options.onQuery) });
    await migratePglite(db, { migrationsFolder });
    return {
      db: db as unknown as Database,
      kind: "pglite",
      close: async () => {
        await client.close();
        release();
      },
    };
  } catch (error) {
    release();
    throw error;
  }
}

/** PostgreSQL's "insufficient_privilege". */
const INSUFFICIENT_PRIVILEGE = "42501";

/**
 * A database the store cannot start on, for a reason the operator fixes (a role without its rights, a server
 * that does not answer): its message is one line saying what to do, printed instead of a stack trace.
 */
export class DatabaseSetupError extends Error {
  constructor(message: string, options?: { cause?: unknown }) {
    super(message, options);
    this.name = "DatabaseSetupError";
  }
}

const errorCode = (error: unknown) =>
  (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;

/** Where a connection URL points, without its password. */
function serverOf(url: string): string {
  const parsed = new URL(url);
  return `${parsed.hostname}:${parsed.port || 5432}${parsed.pathname}`;
}

/** A connection that failed for a reason the operator can act on, said in one line; anything else as it is. */
function connectionProblem(error: unknown, url: string, variable: string): unknown {
  const code = errorCode(error);
  const where = `${variable} (${serverOf(url)})`;
  if (code === "ECONNREFUSED" || code === "ENOTFOUND" || code === "EAI_AGAIN" || code === "ETIMEDOUT") {
    return new DatabaseSetupError(
      `The PostgreSQL server of ${where} does not answer (${code}): start it, or correct ${variable}`,
      { cause: error },
    );
  }
  if (code === "28P01" || code === "28000") {
    return new DatabaseSetupError(
      `The role of ${where} may not sign in (${(error as Error).message}): correct its name or password in ${variable}`,
      { cause: error },
    );
  }
  if (code === "3D000") {
    return new DatabaseSetupError(
      `The database of ${where} does not exist: create it (README, Running in production), or correct ${variable}`,
      { cause: error },
    );
  }
  return error;
}

/**
 * Applies the migrations on the PostgreSQL server at `migrationUrl` (the schema owner's connection).
 * Instances starting together take turns.
 */
export async function migratePostgresDatabase(migrationUrl: string): Promise<void> {
  const [target, socket] = postgresTarget(migrationUrl);
  const migrator = postgres(target, { ...socket, max: 1, onnotice: () => {} });
  try {
    await migrator`select pg_advisory_lock(${MIGRATION_LOCK})`;
    await migratePostgres(drizzlePostgres(migrator), { migrationsFolder });
    await migrator`select pg_advisory_unlock(${MIGRATION_LOCK})`;
  } catch (error) {
    if (errorCode(error) !== INSUFFICIENT_PRIVILEGE) throw error;
    throw new DatabaseSetupError(
      "Migrations are due and this database role may not apply them: run `npm run db:roles` as the schema's " +
        "owner first, or set DATABASE_MIGRATION_URL to the owner's connection (README, Running in production)",
      { cause: error },
    );
  } finally {
    await migrator.end();
  }
}

/**
 * Whether every migration of this build is applied (drizzle's own bookkeeping: the newest applied one is
 * at least as recent as ours). Unknown, e.g. before the first migration, counts as no.
 */
async function migrationsApplied(client: postgres.Sql): Promise<boolean> {
  const newest = Math.max(...readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis));
  try {
    const [applied] = await client`select max(created_at) as at from drizzle.__drizzle_migrations`;
    return Number(applied?.at ?? 0) >= newest;
  } catch {
    return false;
  }
}

/**
 * The store's role must read and write every table: after migrations run through DATABASE_MIGRATION_URL on a
 * database nobody ran `npm run db:roles` on, it has no rights at all, and the first query of the start (or of a
 * customer) would fail with "permission denied". Found here, it is one line saying what to do.
 */
async function checkTableRights(client: postgres.Sql): Promise<void> {
  const [rights] = await client`select
    has_schema_privilege('public', 'USAGE') as "schemaUsage",
    (select c.relname from pg_catalog.pg_class c join pg_catalog.pg_namespace n on n.oid = c.relnamespace
      where n.nspname = 'public' and c.relkind = 'r'
        and not (has_table_privilege(c.oid, 'SELECT') and has_table_privilege(c.oid, 'INSERT'))
      order by c.relname limit 1) as "deniedTable"`;
  if (rights.schemaUsage && !rights.deniedTable) return;
  const what = rights.deniedTable ? `table ${rights.deniedTable}` : "schema public";
  throw new DatabaseSetupError(
    `The role of DATABASE_URL has no rights on the store's tables (${what}): run \`npm run db:roles\` once with ` +
      "DATABASE_MIGRATION_URL (the schema's owner) and DATABASE_URL (this role), then start again " +
      "(README, Running in production)",
  );
}

/**
 * libpq's form for a Unix socket, `postgres://user@localhost/db?host=/var/run/postgresql`: postgres.js reads a
 * socket directory only from its `host` option (it would send `?host=` to the server as a setting), so it is
 * taken out of the URL here. On the same machine a socket spares the TCP stack on both sides (ADR 059).
 */
export function postgresTarget(url: string): [string, { host?: string }] {
  const parsed = new URL(url);
  const socketDirectory = parsed.searchParams.get("host");
  if (!socketDirectory?.startsWith("/")) return [url, {}];
  parsed.searchParams.delete("host");
  return [parsed.toString(), { host: socketDirectory }];
}

/**
 * Opens the pool of `url`. Migrations run first when some are due: through `migrationUrl` (the schema's owner),
 * or through `url` itself when it is the owner. An app role that owns nothing starts on a current schema alone.
 */
async function openPostgres(url: string, options: OpenOptions): Promise<DatabaseHandle> {
  // No JIT: it compiles a query whose estimated cost is high (a stock count per card of a 300-product shop) in
  // 9-13 ms, longer than the query runs; this store's statements are all short (ADR 050).
  const [target, socket] = postgresTarget(url);
  const client = postgres(target, {
    ...socket,
    max: 10,
    onnotice: () => {},
    idle_timeout: 30,
    connection: { jit: "off" },
  });
  try {
    await client`select 1`.catch((error: unknown) => {
      throw connectionProblem(error, url, "DATABASE_URL");
    });
    if (!(await migrationsApplied(client))) {
      const migrationUrl = options.migrationUrl ?? url;
      await migratePostgresDatabase(migrationUrl).catch((error: unknown) => {
        throw connectionProblem(error, migrationUrl, options.migrationUrl ? "DATABASE_MIGRATION_URL" : "DATABASE_URL");
      });
    }
    await checkTableRights(client);
  } catch (error) {
    await client.end();
    throw error;
  }
  const db = drizzlePostgres(client, { schema, logger: queryLogger(options.onQuery) });
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

/** The rows of a raw query (`db.execute`): postgres.js answers an array, PGlite an object with `rows`. */
export async function rowsOf<Row>(result: Promise<unknown>): Promise<Row[]> {
  const value = await result;
  return (Array.isArray(value) ? value : (value as { rows: Row[] }).rows) as Row[];
}

/**
 * Runs a hot query as a prepared statement. On the PostgreSQL server postgres.js then parses and plans it once
 * per connection (its cache is keyed by the statement's text) instead of on every call, as drizzle's unnamed
 * queries are; PGlite runs it as any query. Only for statements of a fixed shape (at most a short IN list), so
 * each connection keeps few of them. `name` labels the statement; the driver keys on its text.
 */
export function prepared<Result>(
  query: { prepare(name: string): { execute(): Promise<Result> } },
  name: string,
): Promise<Result> {
  return query.prepare(name).execute();
}
