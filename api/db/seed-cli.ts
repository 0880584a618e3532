/** `npm run db:seed`: adds the demo catalogue to the configured database (safe to run again; in production it warns: ADR 053). */
import { ConfigError, loadConfig } from "../config";
import { installCredentialKeys } from "../credential-vault";
import { createLogger } from "../logger";
import { DatabaseSetupError, openConfiguredDatabase } from "./client";
import { EmbeddedDatabaseInUseError } from "./embedded-lock";
import { seedWhenWanted } from "./seed";

try {
  const config = loadConfig();
  installCredentialKeys(config.credentialKeys);
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  // Asked for by name, so it seeds; but the demo's coupon and redeem keys are published (ADR 053).
  if (config.isProduction) {
    logger.warn(
      "seeding the demo into a production database: its coupon WELCOME10 and the README's redeem keys will work",
    );
  }
  try {
    await seedWhenWanted(database.db, true, logger);
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(
    error instanceof ConfigError ||
    error instanceof EmbeddedDatabaseInUseError ||
    error instanceof DatabaseSetupError
  )) {
    throw error;
  }
  console.error(error.message);
  process.exit(1);
}
