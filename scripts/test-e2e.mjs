/*
 * `npm run test:e2e`: Playwright on the production build, with any arguments passed through.
 * SKIP_BROWSER_SUITE=1 skips it, and says so: CI runs the browser suite once, on the PostgreSQL server,
 * and the API suite on both databases, which keeps a CI run well inside its time limit.
 */
import { spawnSync } from "node:child_process";

if (process.env.SKIP_BROWSER_SUITE === "1") {
  console.log("Browser suite skipped (SKIP_BROWSER_SUITE=1).");
  process.exit(0);
}
const run = spawnSync("npx", ["playwright", "test", ...process.argv.slice(2)], { stdio: "inherit" });
process.exit(run.status ?? 1);
