// `npm start`'s first half: install and build only when something changed since the last time, so a
// second start is quick. Plain Node with no packages, since it runs before node_modules exists.
// It says what it is doing, step by step, with how long each step takes here, and a line every
// PROGRESS_EVERY_MS while a step runs, since a first install prints nothing for minutes.
// `--dry-run` prints the steps it would take (tests/unit/prepare-start.test.ts); START_ROOT names another tree.
import { spawn } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = process.env.START_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dryRun = process.argv.includes("--dry-run");
const at = (...parts) => path.join(root, ...parts);

/*
 * Measured on a 2-core machine (Debian 12, Node 20, npm 11; README "Quick start"): a first install with an empty
 * npm cache took 1 min 27 s, the production build 19 s. A slower network or machine takes longer.
 */
const FIRST_INSTALL_MINUTES = 2;
const BUILD_SECONDS = 30;
const PROGRESS_EVERY_MS = 15_000;

/** The newest modification time under `target` (a file or a folder), 0 when it does not exist. */
function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

function duration(ms) {
  const seconds = Math.round(ms / 1000);
  return seconds < 60 ? `${seconds} s` : `${Math.floor(seconds / 60)} min ${seconds % 60} s`;
}

/** Runs one step: says what it does, the command, a progress line while it runs and how long it took. */
async function step(title, waiting, command, args) {
  console.log(title);
  console.log(`> ${command} ${args.join(" ")}`);
  if (dryRun) return;
  const started = Date.now();
  const progress = setInterval(
    () => console.log(`  … still ${waiting} (${duration(Date.now() - started)} so far)`),
    PROGRESS_EVERY_MS,
  );
  const status = await new Promise((resolve) => {
    const child = spawn(command, args, { cwd: root, stdio: "inherit" });
    child.once("error", () => resolve(1));
    child.once("exit", (code) => resolve(code ?? 1));
  });
  clearInterval(progress);
  if (status !== 0) {
    console.error(
      `${command} ${args.join(" ")} failed (exit ${status}); fix the message above and run npm start again.`,
    );
    process.exit(status);
  }
  console.log(`  done in ${duration(Date.now() - started)}`);
}

// npm writes node_modules/.package-lock.json at the end of every install.
const installedAt = newest(at("node_modules", ".package-lock.json"));
if (installedAt < Math.max(newest(at("package.json")), newest(at("package-lock.json")))) {
  const why = installedAt === 0 ? `first start, about ${FIRST_INSTALL_MINUTES} minutes` : "package-lock.json changed";
  // The build tools are devDependencies; NODE_ENV=production alone would leave them out.
  await step(`Installing packages (${why})…`, "installing", "npm", [
    "install",
    "--no-audit",
    "--no-fund",
    "--include=dev",
  ]);
}

const buildInputs = ["app", "contract", "api", "public", "vite.config.ts", "tsconfig.json", "package-lock.json"];
const builtAt = newest(at("build", "server", "index.js"));
if (builtAt < Math.max(...buildInputs.map((input) => newest(at(input))))) {
  const why = builtAt === 0 ? `first start, about ${BUILD_SECONDS} seconds` : "sources changed";
  await step(`Building the pages (${why})…`, "building", "npm", ["run", "build"]);
} else {
  console.log("build/ is newer than its sources: not rebuilding");
}
console.log("Starting the store…");
