/*
 * Playwright's web server: the production build on a scratch data folder, and on a scratch
 * PostgreSQL database when TEST_DATABASE_URL is set (as its app role, ADR 036). Both are removed when it stops.
 */
import { spawn, spawnSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createLeastPrivilegeDatabase } from "./database";
import { E2E_OPERATOR_EMAIL, E2E_OWNER } from "./e2e-owner";
import { E2E_SESSION_SECRET } from "./e2e-webhooks";
import { TEST_CREDENTIALS_KEY } from "./credentials-key";

/** E2E_DATA_DIR (set by playwright.config.ts) lets specs find the mail outbox; it starts empty on every run. */
function freshDataDir(): string {
  const named = process.env.E2E_DATA_DIR;
  if (!named) return mkdtempSync(path.join(tmpdir(), "store-e2e-"));
  rmSync(named, { recursive: true, force: true });
  mkdirSync(named, { recursive: true });
  return named;
}
const dataDir = freshDataDir();
const scratch = process.env.TEST_DATABASE_URL
  ? await createLeastPrivilegeDatabase(process.env.TEST_DATABASE_URL, "store_e2e")
  : undefined;

const env: NodeJS.ProcessEnv = {
  ...process.env,
  NODE_ENV: "production",
  SESSION_SECRET: E2E_SESSION_SECRET,
  CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
  DATA_DIR: dataDir,
  // As in production (ADR 036): the store connects as a role that owns nothing; the owner migrates.
  DATABASE_URL: scratch?.url ?? "",
  DATABASE_MIGRATION_URL: scratch?.migrationUrl ?? "",
  SEED_DEMO: "true",
  // The sandbox gateway (off in production by default) lets the suite pay without a provider.
  SANDBOX_PAYMENTS: "true",
  // Every browser of the suite comes from 127.0.0.1: per-address limits would stop it, not a bot.
  RATE_LIMIT_SCALE: process.env.RATE_LIMIT_SCALE ?? "100",
  // The operator's notices land in the outbox beside the customers' mail; specs read mail by recipient.
  OPERATOR_EMAIL: E2E_OPERATOR_EMAIL,
  LOG_LEVEL: process.env.E2E_LOG_LEVEL ?? "warn",
  // Pages name their onion twin (tests/e2e/privacy.spec.ts); the request-id test's own server runs without it.
  ONION_URL: `http://${"e2e".repeat(18)}ab.onion`,
};

// The back office's specs sign in as an owner made the way an operator makes the first one.
const owner = spawnSync(
  "npm",
  ["run", "-s", "admin:create", "--", "--email", E2E_OWNER.email, "--password", E2E_OWNER.password],
  {
    stdio: "inherit",
    env,
  },
);
if (owner.status !== 0) throw new Error(`npm run admin:create failed (${owner.status})`);

const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], { stdio: "inherit", env });

let cleaning = false;
async function cleanUp(code: number) {
  if (cleaning) return;
  cleaning = true;
  rmSync(dataDir, { recursive: true, force: true });
  await scratch?.drop().catch(() => {});
  process.exit(code);
}
child.on("exit", (code) => void cleanUp(code ?? 0));
for (const signal of ["SIGTERM", "SIGINT"] as const) {
  process.on(signal, () => child.kill(signal));
}
