import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeastPrivilegeDatabase } from "../support/database";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * The alerting rules the runbook ships (ops/prometheus/store-alerts.yml, issue 37, ADR 054), checked two ways:
 * Prometheus' own unit tests of them (`promtool test rules`), and every metric name and label they and those
 * tests use, against the /metrics of a real store: a rule on a label the store does not write (the `job` label
 * Prometheus stores as `exported_job`) selects nothing and never fires. promtool comes with Debian's prometheus
 * package; .ci/run installs it, so in CI a missing promtool fails the test instead of skipping it.
 */

const folder = path.join(import.meta.dirname, "../../ops/prometheus");
const RULES = path.join(folder, "store-alerts.yml");
const RULE_TESTS = path.join(folder, "store-alerts.test.yml");
const TOKEN = "alert-rules-test-metrics-token-0123456789";
/** Labels Prometheus itself gives every scraped series; the store's own must not use them. */
const TARGET_LABELS = new Set(["job", "instance"]);

const promtool = spawnSync("promtool", ["--version"]).status === 0;
if (!promtool && !process.env.CI) {
  console.warn(
    "tests/api/alert-rules.test.ts: promtool not found, its `promtool test rules` is skipped (apt-get install prometheus)",
  );
}

function run(args: string[]) {
  const result = spawnSync("promtool", args, { encoding: "utf8", timeout: 60_000 });
  if (result.error) throw result.error;
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

describe.skipIf(!promtool && !process.env.CI)("the alerting rules under promtool", () => {
  it("are valid rules, and fire (and stay quiet) as their unit tests expect", () => {
    const checked = run(["check", "rules", RULES]);
    expect(checked.output).toContain("SUCCESS");
    expect(checked.status).toBe(0);
    const tested = run(["test", "rules", RULE_TESTS]);
    expect(tested.output).toContain("SUCCESS");
    expect(tested.status).toBe(0);
  });
});

// ---------------------------------------------------------------- names and labels against a real /metrics

/** Each metric name of a scrape with the label names its series carry (one set per distinct combination). */
type Scrape = Map<string, { labels: Set<string>; values: Map<string, Set<string>> }>;

function parseScrape(text: string): Scrape {
  const scrape: Scrape = new Map();
  for (const line of text.split("\n")) {
    const match = /^([a-zA-Z_:][a-zA-Z0-9_:]*)(?:\{(.*)\})? /.exec(line);
    if (!match) continue;
    const entry = scrape.get(match[1]) ?? { labels: new Set(), values: new Map() };
    for (const [, label, value] of (match[2] ?? "").matchAll(/([a-zA-Z_][a-zA-Z0-9_]*)="((?:[^"\\]|\\.)*)"/g)) {
      entry.labels.add(label);
      entry.values.set(label, (entry.values.get(label) ?? new Set()).add(value));
    }
    scrape.set(match[1], entry);
  }
  return scrape;
}

type Rule = { alert: string; expr: string; annotations: string };

/** The rules of the file: the YAML is written one key per line, an `expr: >-` block indented under it. */
function readRules(text: string): Rule[] {
  const rules: Rule[] = [];
  const lines = text.split("\n");
  for (let index = 0; index < lines.length; index++) {
    const alert = /^\s*- alert: (\w+)/.exec(lines[index]);
    if (alert) {
      rules.push({ alert: alert[1], expr: "", annotations: "" });
      continue;
    }
    const rule = rules.at(-1);
    const expr = /^(\s*)expr: (.*)$/.exec(lines[index]);
    if (rule && expr) {
      if (expr[2] !== ">-") rule.expr = expr[2];
      else {
        while (lines[index + 1]?.startsWith(`${expr[1]}  `)) rule.expr += ` ${lines[++index].trim()}`;
      }
    } else if (rule && /^\s*summary: /.test(lines[index])) rule.annotations += lines[index];
  }
  return rules;
}

/** The selectors of an expression: metric name and its matchers (label, operator, value). */
function selectorsOf(expr: string) {
  return [...expr.matchAll(/\b(store_[a-z_]+|up)\b(?:\{([^}]*)\})?/g)].map((match) => ({
    name: match[1],
    matchers: [...(match[2] ?? "").matchAll(/(\w+)\s*(=~|!~|!=|=)\s*"([^"]*)"/g)].map(([, label, op, value]) => ({
      label,
      op,
      value,
    })),
  }));
}

const groupingLabels = (expr: string) =>
  [...expr.matchAll(/\b(?:by|without)\s*\(([^)]*)\)/g)].flatMap((match) => match[1].split(",").map((l) => l.trim()));

const adminUrl = process.env.TEST_DATABASE_URL;
let scratch: Awaited<ReturnType<typeof createLeastPrivilegeDatabase>> | undefined;
let server: ApiServerProcess;
let dataDir: string;
let scrape: Scrape;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-alert-rules-"));
  if (adminUrl) scratch = await createLeastPrivilegeDatabase(adminUrl, "store_alert_rules");
  server = new ApiServerProcess(await freePort(), {
    NODE_ENV: "production",
    SESSION_SECRET: "alert-rules-test-session-secret-long-enough",
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    DATA_DIR: dataDir,
    DATABASE_URL: scratch?.url ?? "",
    DATABASE_MIGRATION_URL: scratch?.migrationUrl ?? "",
    PUBLIC_URL: "http://store.test",
    SEED_DEMO: "false",
    METRICS_TOKEN: TOKEN,
    LOG_LEVEL: "error",
  });
  await server.start(60_000);
  // A storefront read, a cart read (checkout), a refused webhook and a readiness probe: each class and counter seen.
  const call = (url: string, init?: RequestInit) =>
    fetch(server.baseUrl + url, { ...init, signal: AbortSignal.timeout(10_000) });
  await call("/v1/product/read");
  await call("/v1/cart/read");
  await call("/readyz");
  await call("/v1/webhooks/sandbox", { method: "POST", body: "{}", headers: { "content-type": "application/json" } });
  const answer = await call("/metrics", { headers: { authorization: `Bearer ${TOKEN}` } });
  expect(answer.status).toBe(200);
  scrape = parseScrape(await answer.text());
}, 90_000);

afterAll(async () => {
  await server?.kill();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the alerting rules against a real store's /metrics", () => {
  const rules = readRules(readFileSync(RULES, "utf8"));

  it("reads every rule of the file", () => {
    expect(rules.length).toBeGreaterThanOrEqual(14);
    for (const rule of rules) expect(rule.expr, rule.alert).not.toBe("");
  });

  it("no series of the store carries a label Prometheus sets itself (job, instance)", () => {
    const clashing = [...scrape].filter(([, entry]) => [...entry.labels].some((label) => TARGET_LABELS.has(label)));
    expect(clashing.map(([name]) => name)).toEqual([]);
  });

  it("uses only metric names, labels and label values the store writes", () => {
    const problems: string[] = [];
    for (const rule of rules) {
      const selectors = selectorsOf(rule.expr);
      const known = new Set<string>(TARGET_LABELS);
      for (const { name, matchers } of selectors) {
        if (name === "up") continue; // Prometheus' own series of each target
        const metric = scrape.get(name);
        if (!metric) {
          problems.push(`${rule.alert}: no metric ${name}`);
          continue;
        }
        for (const label of metric.labels) known.add(label);
        for (const { label, op, value } of matchers) {
          if (!metric.labels.has(label)) problems.push(`${rule.alert}: ${name} has no label ${label}`);
          else if (op === "=" && !metric.values.get(label)!.has(value)) {
            problems.push(`${rule.alert}: ${name} never has ${label}="${value}"`);
          }
        }
      }
      for (const label of groupingLabels(rule.expr)) {
        if (!known.has(label)) problems.push(`${rule.alert}: groups by ${label}, which its metrics lack`);
      }
      const grouped = new Set(groupingLabels(rule.expr));
      for (const [, label] of rule.annotations.matchAll(/\$labels\.(\w+)/g)) {
        // An aggregation keeps only the labels it groups by.
        const aggregated = /\b(sum|max|min|avg|count)\b/.test(rule.expr);
        if (aggregated ? !grouped.has(label) : !known.has(label)) {
          problems.push(`${rule.alert}: its summary names ${label}, which its result lacks`);
        }
      }
    }
    expect(problems).toEqual([]);
  });

  it("its promtool tests feed series with the names and label sets of the store's own", () => {
    const problems: string[] = [];
    const series = [...readFileSync(RULE_TESTS, "utf8").matchAll(/series: '([a-z_]+)\{([^}]*)\}'/g)];
    expect(series.length).toBeGreaterThan(20);
    for (const [, name, body] of series) {
      const labels = [...body.matchAll(/(\w+)="/g)].map((match) => match[1]);
      expect(labels, name).toEqual(expect.arrayContaining(["job", "instance"]));
      if (name === "up") continue;
      const metric = scrape.get(name);
      if (!metric) {
        problems.push(`no metric ${name}`);
        continue;
      }
      const own = labels.filter((label) => !TARGET_LABELS.has(label)).sort();
      if (own.join(",") !== [...metric.labels].sort().join(",")) {
        problems.push(`${name}{${own.join(",")}} differs from the store's {${[...metric.labels].sort().join(",")}}`);
      }
    }
    expect(problems).toEqual([]);
  });
});
