/*
 * server.ts as a process: a bad environment stops it before it touches the database or the build,
 * with one line an operator can act on. (Graceful shutdown needs a build: tests/e2e/server.spec.ts.)
 */
import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, readdirSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";
import { type AddressInfo, createServer as createNetServer } from "node:net";
import { afterEach, beforeEach, describe, expect, it } from "vitest";
import { createLeastPrivilegeDatabase } from "../support/database";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

let dataDir: string;
beforeEach(() => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-server-"));
});
afterEach(() => {
  rmSync(dataDir, { recursive: true, force: true });
});

const repositoryRoot = fileURLToPath(new URL("../..", import.meta.url));

/**
 * server.ts with only these variables, so nothing leaks in from the test runner's environment. With
 * `stopWhen`, it is stopped (SIGTERM) once its output matches.
 */
function startServer(variables: Record<string, string>, options: { args?: string[]; stopWhen?: RegExp } = {}) {
  const env: Record<string, string> = {
    PATH: process.env.PATH ?? "",
    DATA_DIR: dataDir,
    BUILD_DIR: path.join(dataDir, "no-build"),
    ...variables,
  };
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts", ...(options.args ?? [])], {
    cwd: repositoryRoot,
    env: env as NodeJS.ProcessEnv,
    stdio: ["ignore", "pipe", "pipe"],
  });
  let stdout = "";
  let stderr = "";
  child.stdout.on("data", (chunk: Buffer) => {
    stdout += chunk;
    if (options.stopWhen?.test(stdout)) child.kill("SIGTERM");
  });
  child.stderr.on("data", (chunk: Buffer) => (stderr += chunk));
  const exited = new Promise<{ code: number | null; stdout: string; stderr: string }>((resolve) => {
    child.on("exit", (code) => resolve({ code, stdout, stderr }));
  });
  // A server that wrongly starts must not outlive the test.
  const guard = setTimeout(() => child.kill("SIGKILL"), 60_000);
  return exited.finally(() => clearTimeout(guard));
}

describe("server.ts with a bad environment", () => {
  it.each([
    ["PORT", { PORT: "abc" }],
    ["DATABASE_URL", { DATABASE_URL: "mysql://localhost/store" }],
    ["PUBLIC_URL", { PUBLIC_URL: "store.example" }],
    ["SESSION_SECRET", { NODE_ENV: "production" }],
    ["CREDENTIALS_KEY", { NODE_ENV: "production", SESSION_SECRET: "s".repeat(40) }],
    ["CREDENTIALS_KEY", { CREDENTIALS_KEY: Buffer.alloc(16).toString("base64") }],
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

describe("server.ts starting in development with the demo catalogue (issue 25 item 3)", () => {
  it("prints where the demo owner's password is, never the password", { timeout: 90_000 }, async () => {
    const { stdout, stderr } = await startServer(
      { NODE_ENV: "development", SEED_DEMO: "true", PORT: "7421", LOG_LEVEL: "info" },
      { args: ["--api-only"], stopWhen: /store listening/ },
    );
    const file = path.join(dataDir, "demo-owner.txt");
    const password = /^password: (\S+)$/m.exec(readFileSync(file, "utf8"))![1];
    expect(stdout).toContain(`Demo owner for /admin: owner@store.localhost, its password is in ${file}`);
    expect(stdout + stderr).not.toContain(password);
  });
});

/*
 * Issue 37 item 6: a start the operator must fix ends with ONE line saying what to do, and a non-zero exit,
 * not a stack trace: a port another program holds, and a database whose store role has no rights yet
 * (DATABASE_MIGRATION_URL given on a fresh database before `npm run db:roles`).
 */
describe("server.ts stopped by what the operator must fix", () => {
  const production = {
    NODE_ENV: "production",
    SESSION_SECRET: "start-up-errors-session-secret-long-enough",
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
  };

  function expectOneLine({ code, stdout, stderr }: { code: number | null; stdout: string; stderr: string }) {
    expect(code, stderr).not.toBe(0);
    expect(stderr.trim().split("\n"), stderr).toHaveLength(1);
    expect(stderr).not.toMatch(/^\s+at /m);
    expect(stdout).not.toContain("store listening");
    return stderr.trim();
  }

  it("a taken PORT: names the port and says to free it or set PORT", { timeout: 90_000 }, async () => {
    const taken = createNetServer();
    await new Promise<void>((resolve) => taken.listen(0, resolve));
    const port = (taken.address() as AddressInfo).port;
    try {
      const line = expectOneLine(
        await startServer({ ...production, PORT: String(port), LOG_LEVEL: "warn" }, { args: ["--api-only"] }),
      );
      expect(line).toBe(
        `Port ${port} is already in use (another store or program listens on it): stop that one, or set PORT to a free port`,
      );
    } finally {
      taken.close();
    }
  });

  it.skipIf(!process.env.TEST_DATABASE_URL)(
    "DATABASE_MIGRATION_URL on a fresh database before `npm run db:roles`: says to run it",
    { timeout: 90_000 },
    async () => {
      const scratch = await createLeastPrivilegeDatabase(process.env.TEST_DATABASE_URL!, "store_noroles", {
        empty: true,
      });
      try {
        const line = expectOneLine(
          await startServer(
            {
              ...production,
              PORT: "7531",
              DATABASE_URL: scratch.url,
              DATABASE_MIGRATION_URL: scratch.migrationUrl,
              LOG_LEVEL: "warn",
            },
            { args: ["--api-only"] },
          ),
        );
        expect(line).toMatch(/^The role of DATABASE_URL has no rights on the store's tables \(table \w+\)/);
        expect(line).toContain("run `npm run db:roles` once with DATABASE_MIGRATION_URL");
        expect(line).not.toContain("@");
      } finally {
        await scratch.drop();
      }
    },
  );
});
