/**
 * `npm run admin:create -- --email <email> --password <password>`: creates an owner account, or makes
 * the account with that email an owner (its password unchanged). For a fresh install's first owner;
 * with the embedded database, run it while the store is stopped (PGlite allows one process): while the store
 * runs on it, it refuses (api/db/embedded-lock.ts).
 */
import { parseArgs } from "node:util";
import { emailField } from "../contract/account";
import { ConfigError, loadConfig } from "./config";
import { openConfiguredDatabase } from "./db/client";
import { EmbeddedDatabaseInUseError } from "./db/embedded-lock";
import { AppError } from "./errors";
import { createOrPromoteOwner } from "./services/staff";

const USAGE = "Usage: npm run admin:create -- --email <email> --password <password>";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

const { values } = (() => {
  try {
    return parseArgs({ options: { email: { type: "string" }, password: { type: "string" } }, strict: true });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
const email = emailField.safeParse(values.email ?? "");
if (!email.success) fail(`${email.error.issues[0].message}\n${USAGE}`);
if (!values.password) fail(`Please give a password.\n${USAGE}`);

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
// On the embedded database this refuses while the store runs: what it wrote would be lost (ADR 038).
const database = await openConfiguredDatabase(config).catch((error: unknown) => {
  if (error instanceof EmbeddedDatabaseInUseError) fail(error.message);
  throw error;
});
try {
  const result = await createOrPromoteOwner(database.db, { email: email.data, password: values.password });
  console.log(
    result.created
      ? `Created the owner account ${email.data}. Sign in at /login, then open /admin.`
      : `${email.data} is now an owner (its password is unchanged). Sign in at /login, then open /admin.`,
  );
} catch (error) {
  if (error instanceof AppError) fail(error.message);
  throw error;
} finally {
  await database.close();
}
