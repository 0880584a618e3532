/** `npm run db:seed`: adds the demo catalogue to the configured database (safe to run again). */
import { ConfigError, loadConfig } from "../config";
import { installCredentialKeys } from "../credential-vault";
import { createLogger } from "../logger";
import { openConfiguredDatabase } from "./client";
import { EmbeddedDatabaseInUseError } from "./embedded-lock";
import { seedWhenWanted } from "./seed";

try {
  const config = loadConfig();
  installCredentialKeys(config.credentialKeys);
  const logger = createLogger(config.logLevel);
  const database = await openConfiguredDatabase(config);
  try {
    await seedWhenWanted(database.db, true, logger);
  } finally {
    await database.close();
  }
} catch (error) {
  if (!(error instanceof ConfigError || error instanceof EmbeddedDatabaseInUseError)) throw error;
  console.error(error.message);
  process.exit(1);
}
