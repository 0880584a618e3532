/**
 * `npm run db:roles`: as the owner role (DATABASE_MIGRATION_URL), applies the migrations and grants the
 * role of DATABASE_URL what the store needs and no more (ADR 036). Safe to run again.
 */
import postgres from "postgres";
import { ConfigError, loadConfig } from "../config";
import { migratePostgresDatabase } from "./client";
import { grantAppRole } from "./roles";

try {
  const config = loadConfig();
  if (!config.databaseUrl || !config.databaseMigrationUrl) {
    throw new ConfigError(
      "db:roles needs DATABASE_URL (the app role) and DATABASE_MIGRATION_URL (the role that owns the schema)",
    );
  }
  const appRole = decodeURIComponent(new URL(config.databaseUrl).username);
  const ownerRole = decodeURIComponent(new URL(config.databaseMigrationUrl).username);
  if (!appRole || appRole === ownerRole) {
    throw new ConfigError("DATABASE_URL must name a role of its own, other than DATABASE_MIGRATION_URL's owner role");
  }
  await migratePostgresDatabase(config.databaseMigrationUrl);
  const owner = postgres(config.databaseMigrationUrl, { max: 1, onnotice: () => {} });
  try {
    await grantAppRole(owner, appRole);
  } finally {
    await owner.end();
  }
  console.log(
    `${appRole} may now read and write the store's rows and add to the audit log; ${ownerRole} owns the schema.`,
  );
} catch (error) {
  if (!(error instanceof ConfigError)) throw error;
  console.error(error.message);
  process.exit(1);
}
