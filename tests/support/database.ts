import { randomBytes } from "node:crypto";
import type { PGlite } from "@electric-sql/pglite";
import { sql } from "drizzle-orm";
import postgres from "postgres";
import { type DatabaseHandle, migratePostgresDatabase, openDatabase } from "../../api/db/client";
import { grantAppRole } from "../../api/db/roles";

/** The least-privilege roles (ADR 036) of every test database on the server: made once, shared, kept. */
export const TEST_OWNER_ROLE = "store_test_owner";
export const TEST_APP_ROLE = "store_test_app";

export type TestDatabaseHandle = DatabaseHandle & {
  /** Runs a statement as the role that owns the schema (the app's own role may not alter tables). */
  asOwner(statement: string): Promise<void>;
};

/**
 * A fresh, migrated database for one test file: embedded PGlite in memory by default, or a new database on
 * the PostgreSQL server named by TEST_DATABASE_URL (dropped on close), where the handle connects as the app
 * role that owns nothing, as the store does in production (ADR 036).
 */
export async function createTestDatabase(
  options: { onQuery?: (statement: string) => void } = {},
): Promise<TestDatabaseHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) {
    const handle = await openDatabase("memory://", { ...options, startFrom: await migratedPgliteFolder() });
    return { ...handle, asOwner: async (statement) => void (await handle.db.execute(sql.raw(statement))) };
  }
  const scratch = await createLeastPrivilegeDatabase(adminUrl, "store_test");
  const handle = await openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl, ...options });
  return {
    ...handle,
    asOwner: async (statement) => {
      const owner = postgres(scratch.migrationUrl, { max: 1, onnotice: () => {} });
      await owner.unsafe(statement).finally(() => owner.end());
    },
    close: async () => {
      await handle.close();
      await scratch.drop();
    },
  };
}

let migratedFolder: Promise<Blob> | undefined;
/**
 * A migrated, empty embedded database's data folder, made once per test process: each test file's database starts
 * from a copy (a fresh PGlite runs initdb, 2 s; a copy opens in 0.3 s). Migrations still run on the copy, and find
 * nothing to do.
 */
function migratedPgliteFolder(): Promise<Blob> {
  migratedFolder ??= (async () => {
    const { db, close } = await openDatabase("memory://");
    const client = (db as unknown as { $client: PGlite }).$client;
    const folder = await client.dumpDataDir("none");
    await close();
    return folder;
  })();
  return migratedFolder;
}

/** Creates an empty database beside the admin URL's, owned by the admin URL's role; `drop` removes it. */
export async function createScratchPostgresDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  return { url: urlFor(adminUrl, name), drop: dropper(adminUrl, name) };
}

/**
 * A database set up as `npm run db:roles` sets one up: owned by TEST_OWNER_ROLE, which migrates
 * (`migrationUrl`, for DATABASE_MIGRATION_URL), with `url` connecting as TEST_APP_ROLE (for DATABASE_URL).
 * `empty`: only the roles and the database, as an operator has them before running `npm run db:roles`.
 */
export async function createLeastPrivilegeDatabase(
  adminUrl: string,
  prefix: string,
  options: { empty?: boolean } = {},
) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  try {
    for (const role of [TEST_OWNER_ROLE, TEST_APP_ROLE]) {
      // Test files start together: a role another one just made is fine.
      await admin.unsafe(
        `do $$ begin create role ${role} login; exception when duplicate_object or unique_violation then null; end $$`,
      );
    }
    await admin.unsafe(`create database ${name} owner ${TEST_OWNER_ROLE}`);
  } finally {
    await admin.end();
  }
  const migrationUrl = urlFor(adminUrl, name, TEST_OWNER_ROLE);
  if (!options.empty) {
    await migratePostgresDatabase(migrationUrl);
    const owner = postgres(migrationUrl, { max: 1, onnotice: () => {} });
    await grantAppRole(owner, TEST_APP_ROLE).finally(() => owner.end());
  }
  return { url: urlFor(adminUrl, name, TEST_APP_ROLE), migrationUrl, drop: dropper(adminUrl, name) };
}

/** The admin URL pointed at database `name`, as `role` when given. */
function urlFor(adminUrl: string, name: string, role?: string): string {
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  if (role) {
    url.username = role;
    url.password = "";
  }
  return url.toString();
}

function dropper(adminUrl: string, name: string) {
  return async () => {
    const cleaner = postgres(adminUrl, { max: 1, onnotice: () => {} });
    await cleaner.unsafe(`drop database if exists ${name} with (force)`);
    await cleaner.end();
  };
}
