import { sql } from "drizzle-orm";
import { readMigrationFiles } from "drizzle-orm/migrator";
import type { Database } from "./client";
import { migrationsFolder } from "./client";

export type Readiness = { ready: true } | { ready: false; reason: "database unavailable" | "migrations pending" };

/** How long a readiness probe waits for the database: a hung connection must not hang the probe. */
const PROBE_TIMEOUT_MS = 2_000;

let newestMigration: number | undefined;
/** When the newest migration of this build was made (drizzle's `folderMillis`), read once. */
function newestMigrationMillis(): number {
  newestMigration ??= Math.max(...readMigrationFiles({ migrationsFolder }).map((migration) => migration.folderMillis));
  return newestMigration;
}

/**
 * Whether this instance can serve: the database answers, and drizzle's bookkeeping holds this build's newest
 * migration (an instance of a newer release on a database not yet migrated is not ready). Never throws.
 */
export async function checkReadiness(db: Database, timeoutMs = PROBE_TIMEOUT_MS): Promise<Readiness> {
  let timer: NodeJS.Timeout | undefined;
  const timeout = new Promise<"timeout">((resolve) => {
    timer = setTimeout(() => resolve("timeout"), timeoutMs);
  });
  try {
    const answer = await Promise.race([
      db.execute<{ at: string | number | null }>(sql`select max(created_at) as at from drizzle.__drizzle_migrations`),
      timeout,
    ]);
    if (answer === "timeout") return { ready: false, reason: "database unavailable" };
    const rows = Array.isArray(answer) ? answer : (answer as unknown as { rows: { at: unknown }[] }).rows;
    return Number(rows[0]?.at ?? 0) >= newestMigrationMillis()
      ? { ready: true }
      : { ready: false, reason: "migrations pending" };
  } catch (error) {
    // No bookkeeping table at all is a database nobody migrated yet.
    const code =
      (error as { code?: string; cause?: { code?: string } }).cause?.code ?? (error as { code?: string }).code;
    return {
      ready: false,
      reason: code === "42P01" || code === "3F000" ? "migrations pending" : "database unavailable",
    };
  } finally {
    clearTimeout(timer);
  }
}
