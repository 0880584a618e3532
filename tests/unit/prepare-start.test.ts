import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

const script = path.resolve("scripts/prepare-start.mjs");
let root: string;

/** Writes a file with a modification time `secondsAgo` in the past. */
function file(relative: string, secondsAgo: number) {
  const target = path.join(root, relative);
  mkdirSync(path.dirname(target), { recursive: true });
  writeFileSync(target, "x");
  const time = new Date(Date.now() - secondsAgo * 1000);
  utimesSync(target, time, time);
  utimesSync(path.dirname(target), time, time);
}

function dryRun(): string[] {
  const output = execFileSync("node", [script, "--dry-run"], { env: { ...process.env, START_ROOT: root } });
  return output.toString().split("\n");
}

function plannedSteps(): string[] {
  return dryRun().filter((line) => line.startsWith("> "));
}

describe("npm start's install and build step", () => {
  beforeEach(() => {
    root = mkdtempSync(path.join(tmpdir(), "prepare-start-"));
  });
  afterEach(() => rmSync(root, { recursive: true, force: true }));

  it("installs and builds a fresh clone", () => {
    file("package.json", 100);
    file("package-lock.json", 100);
    file("app/root.tsx", 100);
    expect(plannedSteps()).toEqual(["> npm install --no-audit --no-fund --include=dev", "> npm run build"]);
  });

  it("says what it does and how long a first start takes, step by step", () => {
    file("package.json", 100);
    file("package-lock.json", 100);
    file("app/root.tsx", 100);
    expect(dryRun()).toEqual([
      expect.stringMatching(/^Installing packages \(first start, about \d+ minutes\)…$/),
      "> npm install --no-audit --no-fund --include=dev",
      expect.stringMatching(/^Building the pages \(first start, about \d+ seconds\)…$/),
      "> npm run build",
      "Starting the store…",
      "",
    ]);
    file("node_modules/.package-lock.json", 50);
    file("build/server/index.js", 40);
    file("package-lock.json", 5);
    expect(dryRun().filter((line) => !line.startsWith("> "))).toEqual([
      "Installing packages (package-lock.json changed)…",
      "Building the pages (sources changed)…",
      "Starting the store…",
      "",
    ]);
  });

  it("does nothing on a second start when nothing changed", () => {
    file("package.json", 100);
    file("package-lock.json", 100);
    file("app/root.tsx", 100);
    file("node_modules/.package-lock.json", 50);
    file("build/server/index.js", 40);
    expect(plannedSteps()).toEqual([]);
  });

  it("rebuilds after a source change, and reinstalls after a lockfile change", () => {
    file("package.json", 100);
    file("package-lock.json", 100);
    file("node_modules/.package-lock.json", 50);
    file("build/server/index.js", 40);
    file("app/routes/shop.tsx", 10);
    expect(plannedSteps()).toEqual(["> npm run build"]);
    file("package-lock.json", 5);
    expect(plannedSteps()).toEqual(["> npm install --no-audit --no-fund --include=dev", "> npm run build"]);
  });
});
