/**
 * `npm run size`: the gzipped JavaScript each page loads, computed from the production build's route
 * manifest (deterministic: no browser, no timing), against the budgets issue 18 sets. A page loads the
 * entry, then every route module on its path (root, layouts, the page) with their imports; each file is
 * counted once. Run after `npm run build`; exits 1 naming every page over its budget.
 *
 * Not yet part of `npm test`: today's pages are over (the root loads zod and conform for the cart panel on
 * every page); it joins the test command when they fit.
 */
import { readFileSync, readdirSync } from "node:fs";
import path from "node:path";
import { gzipSync } from "node:zlib";

const KIB = 1024;
/** KiB of gzipped JS. Storefront pages: 100; the two pages a phone opens first: 90; the back office: 160. */
const BUDGETS = [
  { match: (id) => id === "routes/shop" || id === "routes/find-order", kib: 90, label: "storefront (first pages)" },
  { match: (id) => id.startsWith("routes/admin"), kib: 160, label: "back office" },
  { match: () => true, kib: 100, label: "storefront" },
];

const clientDir = path.resolve(process.argv[2] ?? "build/client");
const assetsDir = path.join(clientDir, "assets");
const manifestFile = readdirSync(assetsDir).find((name) => /^manifest-[\w-]+\.js$/.test(name));
if (!manifestFile) {
  console.error(`No route manifest in ${assetsDir}: run \`npm run build\` first.`);
  process.exit(1);
}
const manifestSource = readFileSync(path.join(assetsDir, manifestFile), "utf8");
const manifest = JSON.parse(manifestSource.slice(manifestSource.indexOf("{"), manifestSource.lastIndexOf("}") + 1));

const gzipped = new Map();
function sizeOf(url) {
  if (!gzipped.has(url)) gzipped.set(url, gzipSync(readFileSync(path.join(clientDir, url)), { level: 9 }).length);
  return gzipped.get(url);
}

/** The route and its parents, root first. */
function chainOf(id) {
  const chain = [];
  for (let route = manifest.routes[id]; route; route = manifest.routes[route.parentId]) chain.unshift(route);
  return chain;
}

const rows = [];
for (const id of Object.keys(manifest.routes)) {
  if (id === "root") continue;
  const route = manifest.routes[id];
  // A resource route (a download, a redirect, robots.txt) has no component: its client module is empty.
  if ((route.imports ?? []).length === 0 && readFileSync(path.join(clientDir, route.module)).length <= 1) continue;
  const files = new Set([manifest.entry.module, ...manifest.entry.imports]);
  for (const part of chainOf(id)) {
    if (part.module) files.add(part.module);
    for (const url of part.imports ?? []) files.add(url);
  }
  const bytes = [...files].reduce((sum, url) => sum + sizeOf(url), 0);
  const budget = BUDGETS.find((candidate) => candidate.match(id));
  rows.push({ id, kib: bytes / KIB, budget });
}

rows.sort((a, b) => b.kib - a.kib);
const over = rows.filter((row) => row.kib > row.budget.kib);
for (const row of rows) {
  const mark = row.kib > row.budget.kib ? "OVER" : "ok  ";
  console.log(`${mark} ${row.kib.toFixed(1).padStart(6)} KiB / ${row.budget.kib} KiB  ${row.id} (${row.budget.label})`);
}
if (over.length > 0) {
  console.error(`\n${over.length} page(s) over their JS budget: ${over.map((row) => row.id).join(", ")}`);
  process.exit(1);
}
console.log(`\nEvery page is within its JS budget (${rows.length} pages).`);
