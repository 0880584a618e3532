import { randomBytes } from "node:crypto";
import postgres from "postgres";
import { type DatabaseHandle, openDatabase } from "../../api/db/client";

/**
 * A fresh, migrated database for one test file: embedded PGlite in memory by default,
 * or a new database on the PostgreSQL server named by TEST_DATABASE_URL (dropped on close).
 */
export async function createTestDatabase(): Promise<DatabaseHandle> {
  const adminUrl = process.env.TEST_DATABASE_URL;
  if (!adminUrl) return openDatabase("memory://");
  const { url, drop } = await createScratchPostgresDatabase(adminUrl, "store_test");
  const handle = await openDatabase(url);
  return {
    ...handle,
    close: async () => {
      await handle.close();
      await drop();
    },
  };
}

/** Creates an empty database beside the admin URL's; `drop` removes it. */
export async function createScratchPostgresDatabase(adminUrl: string, prefix: string) {
  const name = `${prefix}_${randomBytes(6).toString("hex")}`;
  const admin = postgres(adminUrl, { max: 1, onnotice: () => {} });
  await admin.unsafe(`create database ${name}`);
  await admin.end();
  const url = new URL(adminUrl);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: async () => {
      const cleaner = postgres(adminUrl, { max: 1, onnotice: () => {} });
      await cleaner.unsafe(`drop database if exists ${name} with (force)`);
      await cleaner.end();
    },
  };
}
