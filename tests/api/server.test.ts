/*
 * server.ts as a process: a bad environment stops it before it touches the database or the build,
 * with one line an operator can act on. (Graceful shutdown needs a build: tests/e2e/server.spec.ts.)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, beforeEach, describe, expect, it } from "vitest";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-server-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/** server.ts with only these variables, so nothing leaks in from the test runner's environment. */
function startServer(variables: Record<string, string>) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATA_DIR: dataDir,
    BUILD_DIR: path.join(dataDir, "no-build"),
    ...variables,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: repositoryRoot,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => (stdout += chunk));
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
  // A server that wrongly starts must not outlive the test.
  const guard = setTimeout(() => child.kill("SIGKILL"), 20_000);
  return exited.finally(() => clearTimeout(guard));
}

describe("server.ts with a bad environment", () => {
  it.each([
    ["PORT", { PORT: "abc" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/store" }],
    ["PUBLIC_URL", { PUBLIC_URL: "store.example" }],
    ["SESSION_SECRET", { NODE_ENV: "production" }],
  ])("exits non-zero with one clear line naming %s", async (name, env) => {
    const { code, stdout, stderr } = await startServer(env);
    expect(code).not.toBe(0);
    const lines = stderr.trim().split("\n");
    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatch(/^Invalid configuration: /);
    expect(lines[0]).toContain(name);
    expect(stdout).not.toContain("listening");
    // It stopped before opening the embedded database.
    expect(readdirSync(dataDir)).toEqual([]);
  });
});
