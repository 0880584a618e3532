import { readFileSync, readdirSync, statSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";

/*
 * Every route module with an action is posted to by a page test (issue 41): a page test names the module through
 * tests/support/routes.ts (`route("name")`) and hands it to `page.post`. A new route with an action and no page
 * test fails here, by name.
 */

const ROUTES = path.resolve(__dirname, "../../app/routes");
const PAGE_TESTS = path.resolve(__dirname, "../pages");
const ROUTE_MAP = path.resolve(__dirname, "../support/routes.ts");
const MODULE_FILE = /\.(tsx?|jsx?)$/;

/** Route name -> file, for flat modules (admin.keys.tsx) and folder routes (admin.orders.$orderId/route.tsx). */
function routeModuleFiles(): Map<string, string> {
  const files = new Map<string, string>();
  for (const entry of readdirSync(ROUTES)) {
    const full = path.join(ROUTES, entry);
    if (statSync(full).isDirectory()) {
      const inside = readdirSync(full).find((file) => /^route\.(tsx?|jsx?)$/.test(file));
      if (inside) files.set(entry, path.join(full, inside));
    } else if (MODULE_FILE.test(entry)) {
      files.set(entry.replace(MODULE_FILE, ""), full);
    }
  }
  return files;
}

const exportsAction = (source: string) =>
  /export\s+(async\s+)?function\s+action\b|export\s+const\s+action\b|export\s*\{[^}]*\baction\b[^}]*\}/.test(source);

/** The route names page tests post to: `const x = await route("name")` then `.post(x, ...)`, or `.post(await route("name"), ...)`. */
function postedRouteNames(): Set<string> {
  const posted = new Set<string>();
  for (const file of readdirSync(PAGE_TESTS).filter((name) => name.endsWith(".ts"))) {
    const source = readFileSync(path.join(PAGE_TESTS, file), "utf8");
    for (const [, variable, name] of source.matchAll(/const\s+(\w+)\s*=\s*await\s+route\(\s*"([^"]+)"\s*\)/g)) {
      if (new RegExp(`\\.post\\(\\s*${variable}\\s*,`).test(source)) posted.add(name);
    }
    for (const [, name] of source.matchAll(/\.post\(\s*await\s+route\(\s*"([^"]+)"\s*\)/g)) posted.add(name);
  }
  return posted;
}

/** The map's entries: route name -> the path it imports. */
function mappedRoutes(): Map<string, string> {
  const source = readFileSync(ROUTE_MAP, "utf8");
  const entries = source.matchAll(/"?([\w.$-]+)"?\s*:\s*\(\)\s*=>\s*import\(\s*"([^"]+)"\s*\)/g);
  return new Map([...entries].map(([, name, target]) => [name, target]));
}

describe("page tests for route actions", () => {
  const modules = routeModuleFiles();
  const withAction = [...modules].filter(([, file]) => exportsAction(readFileSync(file, "utf8")));

  it("finds the route modules with an action", () => {
    expect(withAction.length).toBeGreaterThan(30);
  });

  it("imports each route module from the path where it is (tests/support/routes.ts)", () => {
    const misplaced = [...mappedRoutes()]
      .filter(([name, target]) => {
        const file = modules.get(name);
        const resolved = path.resolve(path.dirname(ROUTE_MAP), target);
        return !file || (file.replace(MODULE_FILE, "") !== resolved && path.dirname(file) !== resolved);
      })
      .map(([name, target]) => `${name} -> ${target}`);
    expect(misplaced).toEqual([]);
  });

  it("posts to every action from a page test in tests/pages", () => {
    const posted = postedRouteNames();
    const untested = withAction.map(([name]) => name).filter((name) => !posted.has(name));
    expect(untested, "route modules with an action that no page test posts to").toEqual([]);
  });
});
