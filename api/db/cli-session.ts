import { type Config, ConfigError, loadConfig } from "../config";
import { type CredentialVault, installCredentialKeys } from "../credential-vault";
import { type DatabaseHandle, openConfiguredDatabase } from "./client";
import { EmbeddedDatabaseInUseError } from "./embedded-lock";

type ErrorClass = abstract new (...args: never[]) => Error;

/**
 * The preamble every database command line shares: loads the configuration, installs the credential keys, opens the
 * configured database, runs `task` and closes the database. An error a person can act on (bad configuration, the
 * embedded database in use by the store, or one of `alsoExpected`) is printed alone and exits 1; others are thrown.
 */
export async function runDatabaseCommand(
  task: (session: { config: Config; vault: CredentialVault; database: DatabaseHandle }) => Promise<void>,
  alsoExpected: readonly ErrorClass[],
): Promise<void> {
  try {
    const config = loadConfig();
    const vault = installCredentialKeys(config.credentialKeys);
    const database = await openConfiguredDatabase(config);
    try {
      await task({ config, vault, database });
    } finally {
      await database.close();
    }
  } catch (error) {
    const expected = [ConfigError, EmbeddedDatabaseInUseError, ...alsoExpected];
    if (!(error instanceof Error && expected.some((errorClass) => error instanceof errorClass))) {
      throw error;
    }
    console.error(error.message);
    process.exit(1);
  }
}
