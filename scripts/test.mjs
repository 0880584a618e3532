/*
 * `npm test` after `npm install`: every check, in order, stopping at the first that fails.
 *
 * CI runs it twice, on PGlite and on the PostgreSQL server (.ci/run, ADR 064). What cannot differ between the two
 * databases runs in the first only: the type check, the linters, knip, the unit tests (they open no database) and
 * the size budgets. DATABASE_SUITES_ONLY=1 keeps to the rest: the API and page tests, and the browser suite unless
 * SKIP_BROWSER_SUITE=1 (scripts/test-e2e.mjs) says otherwise.
 */
import { spawnSync } from "node:child_process";

const databaseSuitesOnly = process.env.DATABASE_SUITES_ONLY === "1";

/** [what it is, the command, whether its outcome can depend on the database] */
const steps = [
  ["type check", ["npm", "run", "typecheck"], false],
  ["linters", ["npm", "run", "lint"], false],
  ["dead code (knip)", ["npm", "run", "knip"], false],
  // One vitest run either way, so its summary counts every test of the run.
  databaseSuitesOnly
    ? ["API and page tests", ["npx", "vitest", "run", "tests/api", "tests/pages"], true]
    : ["unit, API and page tests", ["npx", "vitest", "run"], true],
  ["production build", ["npm", "run", "build"], true],
  ["size budgets", ["npm", "run", "size"], false],
  ["browser suite", ["npm", "run", "test:e2e"], true],
];

for (const [name, command, dependsOnDatabase] of steps) {
  if (databaseSuitesOnly && !dependsOnDatabase) {
    console.log(`\n${name}: run once, in the other run (DATABASE_SUITES_ONLY=1)`);
    continue;
  }
  console.log(`\n> ${name}: ${command.join(" ")}`);
  const run = spawnSync(command[0], command.slice(1), { stdio: "inherit" });
  if (run.status !== 0) {
    console.error(`\n${name} failed (exit ${run.status ?? run.signal})`);
    process.exit(run.status ?? 1);
  }
}
