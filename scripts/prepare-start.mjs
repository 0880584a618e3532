// `npm start`'s first half: install and build only when something changed since the last time, so a
// second start is quick. Plain Node with no packages, since it runs before node_modules exists.
// `--dry-run` prints the steps it would take (tests/unit/prepare-start.test.ts); START_ROOT names another tree.
import { spawnSync } from "node:child_process";
import { existsSync, readdirSync, statSync } from "node:fs";
import path from "node:path";

const root = process.env.START_ROOT ?? path.resolve(path.dirname(new URL(import.meta.url).pathname), "..");
const dryRun = process.argv.includes("--dry-run");
const at = (...parts) => path.join(root, ...parts);

/** The newest modification time under `target` (a file or a folder), 0 when it does not exist. */
function newest(target) {
  if (!existsSync(target)) return 0;
  const stat = statSync(target);
  if (!stat.isDirectory()) return stat.mtimeMs;
  let latest = stat.mtimeMs;
  for (const entry of readdirSync(target)) latest = Math.max(latest, newest(path.join(target, entry)));
  return latest;
}

function run(command, args) {
  console.log(`> ${command} ${args.join(" ")}`);
  if (dryRun) return;
  const result = spawnSync(command, args, { cwd: root, stdio: "inherit" });
  if (result.status !== 0) process.exit(result.status ?? 1);
}

// npm writes node_modules/.package-lock.json at the end of every install.
const installedAt = newest(at("node_modules", ".package-lock.json"));
if (installedAt < Math.max(newest(at("package.json")), newest(at("package-lock.json")))) {
  // The build tools are devDependencies; NODE_ENV=production alone would leave them out.
  run("npm", ["install", "--no-audit", "--no-fund", "--include=dev"]);
}

const buildInputs = ["app", "contract", "api", "public", "vite.config.ts", "tsconfig.json", "package-lock.json"];
const builtAt = newest(at("build", "server", "index.js"));
if (builtAt < Math.max(...buildInputs.map((input) => newest(at(input))))) {
  run("npm", ["run", "build"]);
} else {
  console.log("build/ is newer than its sources: not rebuilding");
}
