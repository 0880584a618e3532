/**
 * `npm run admin:create -- --email <email>`: creates an owner account, or makes the account with that email an
 * owner (its password unchanged). For a fresh install's first owner. The password is asked for at a terminal
 * (twice, not shown), or read as the first line of standard input when it is piped (`--password-stdin` says so
 * explicitly); `--password <password>` still works but puts it in the process list, where other users of the
 * machine can read it. With the embedded database, run it while the store is stopped (PGlite allows one
 * process): while the store runs on it, it refuses (api/db/embedded-lock.ts).
 */
import { parseArgs } from "node:util";
import { emailField } from "../contract/account";
import { ConfigError, loadConfig } from "./config";
import { DatabaseSetupError, openConfiguredDatabase } from "./db/client";
import { EmbeddedDatabaseInUseError } from "./db/embedded-lock";
import { AppError } from "./errors";
import { createOrPromoteOwner } from "./services/staff/members";

const USAGE =
  "Usage: npm run admin:create -- --email <email> [--password-stdin]  (the password is asked for, or read from standard input)";

function fail(message: string): never {
  console.error(message);
  process.exit(1);
}

/** The first line of standard input, without its line ending ("" when there is none). */
async function firstLineOfInput(): Promise<string> {
  let text = "";
  for await (const chunk of process.stdin) {
    text += String(chunk);
    if (text.includes("\n")) break;
  }
  process.stdin.pause();
  return text.split(/\r?\n/)[0];
}

/** Asks at the terminal without showing what is typed. */
function askHidden(question: string): Promise<string> {
  const input = process.stdin;
  process.stderr.write(question);
  input.setRawMode(true);
  input.resume();
  input.setEncoding("utf8");
  return new Promise((resolve) => {
    let typed = "";
    const onData = (keys: string) => {
      for (const key of keys) {
        if (key === "\u0003") {
          input.setRawMode(false);
          process.stderr.write("\n");
          process.exit(130);
        } else if (key === "\r" || key === "\n") {
          input.setRawMode(false);
          input.pause();
          input.off("data", onData);
          process.stderr.write("\n");
          return resolve(typed);
        } else if (key === "\u007f" || key === "\b") {
          typed = typed.slice(0, -1);
        } else if (key >= " ") {
          typed += key;
        }
      }
    };
    input.on("data", onData);
  });
}

/** The password: from the command line, piped in, or asked for twice at a terminal. */
async function readPassword(options: { password?: string; "password-stdin"?: boolean }): Promise<string> {
  if (options.password !== undefined && options["password-stdin"]) {
    fail(`Give the password either with --password or on standard input, not both.\n${USAGE}`);
  }
  if (options.password !== undefined) return options.password;
  if (options["password-stdin"] || !process.stdin.isTTY) return firstLineOfInput();
  const password = await askHidden("Password for the owner (not shown): ");
  if ((await askHidden("The same password again: ")) !== password)
    fail("The two passwords differ: nothing was changed.");
  return password;
}

const { values } = (() => {
  try {
    return parseArgs({
      options: { email: { type: "string" }, password: { type: "string" }, "password-stdin": { type: "boolean" } },
      strict: true,
    });
  } catch (error) {
    return fail(`${(error as Error).message}\n${USAGE}`);
  }
})();
const email = emailField.safeParse(values.email ?? "");
if (!email.success) fail(`${email.error.issues[0].message}\n${USAGE}`);
const password = await readPassword(values);
if (!password) fail(`Please give a password.\n${USAGE}`);

let config;
try {
  config = loadConfig();
} catch (error) {
  if (error instanceof ConfigError) fail(error.message);
  throw error;
}
// On the embedded database this refuses while the store runs: what it wrote would be lost (ADR 038).
const database = await openConfiguredDatabase(config).catch((error: unknown) => {
  if (error instanceof EmbeddedDatabaseInUseError || error instanceof DatabaseSetupError) fail(error.message);
  throw error;
});
try {
  const result = await createOrPromoteOwner(database.db, { email: email.data, password });
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
