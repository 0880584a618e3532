import type { Sql } from "postgres";

/*
 * Least privilege on PostgreSQL (ADR 036): the schema belongs to an owner role, which runs the migrations
 * (DATABASE_MIGRATION_URL); the store connects as an app role that owns nothing (DATABASE_URL). The app
 * reads and writes rows, and only adds to the audit log: without ownership it cannot drop or disable the
 * audit log's trigger, and without UPDATE, DELETE and TRUNCATE it cannot rewrite the log either.
 */

/** The tables the app may only read and add to. */
export const APPEND_ONLY_TABLES = ["audit_log"] as const;

/**
 * Run as the owner role after the migrations: grants `appRole` what the store needs on every table (and,
 * through default privileges, on the tables later migrations create), minus changing an append-only table.
 * Safe to run again.
 */
export async function grantAppRole(owner: Sql, appRole: string): Promise<void> {
  await owner.begin(async (sql) => {
    // PostgreSQL 14 and older let every role create tables in public; 15 and later already do not.
    await sql`revoke create on schema public from public`;
    await sql`grant usage on schema public to ${sql(appRole)}`;
    // At start the app reads which migrations are applied, so it can start without the owner's connection.
    await sql`grant usage on schema drizzle to ${sql(appRole)}`;
    await sql`grant select on drizzle.__drizzle_migrations to ${sql(appRole)}`;
    await sql`grant select, insert, update, delete on all tables in schema public to ${sql(appRole)}`;
    await sql`alter default privileges in schema public grant select, insert, update, delete on tables to ${sql(appRole)}`;
    for (const table of APPEND_ONLY_TABLES) {
      await sql`revoke update, delete, truncate on ${sql(table)} from ${sql(appRole)}`;
    }
  });
}
