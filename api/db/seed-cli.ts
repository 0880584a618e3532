/** `npm run db:seed`: adds the demo catalogue to the configured database (safe to run again; in production it warns: ADR 053). */
import { createLogger } from "../logger";
import { runDatabaseCommand } from "./cli-session";
import { DatabaseSetupError } from "./client";
import { seedWhenWanted } from "./seed";

await runDatabaseCommand(
  async ({ config, database }) => {
    const logger = createLogger(config.logLevel);
    // Asked for by name, so it seeds; but the demo's coupon and redeem keys are published (ADR 053).
    if (config.isProduction) {
      logger.warn(
        "seeding the demo into a production database: its coupon WELCOME10 and the README's redeem keys will work",
      );
    }
    await seedWhenWanted(database.db, true, logger);
  },
  [DatabaseSetupError],
);
