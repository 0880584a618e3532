import { spawn, spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMBEDDED_LOCK_FILE } from "../../api/db/embedded-lock";
import { ApiServerProcess, freePort } from "../support/server-process";

/*
 * `npm run admin:create` while the store runs on the embedded database (issue 26 item 7): PGlite is one
 * process's database, so an owner the command made beside the running store was lost, and could not sign in
 * after a restart. The store keeps its pid in DATA_DIR/store.pid; the command refuses while that process
 * lives (ADR 038). The real server and the real command, on a fresh DATA_DIR.
 */

let dataDir: string;
let server: ApiServerProcess;
const owner = { email: "first.owner@example.com", password: "a long owner passphrase" };

/** The environment of both processes: the embedded database in `dataDir`, whatever the caller's shell says. */
function embeddedEnv(): NodeJS.ProcessEnv {
  const env: NodeJS.ProcessEnv = { ...process.env, DATA_DIR: dataDir, SEED_DEMO: "false", LOG_LEVEL: "silent" };
  delete env.DATABASE_URL;
  delete env.DATABASE_MIGRATION_URL;
  return env;
}

function adminCreate() {
  const result = spawnSync(
    process.execPath,
    ["--import", "tsx", "api/admin-create-cli.ts", "--email", owner.email, "--password", owner.password],
    { env: embeddedEnv(), encoding: "utf8", timeout: 60_000 },
  );
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** A pid no process has any more: a store that was killed left it behind. */
async function deadPid(): Promise<number> {
  const child = spawn(process.execPath, ["-e", ""]);
  await new Promise((resolve) => child.once("exit", resolve));
  return child.pid!;
}

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "embedded-lock-"));
  const env = embeddedEnv() as Record<string, string>;
  server = new ApiServerProcess(await freePort(), env);
}, 60_000);
afterAll(async () => {
  await server?.stop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("the embedded database is one process's", () => {
  it("lets a store start over a pid file left by a killed one", async () => {
    writeFileSync(path.join(dataDir, EMBEDDED_LOCK_FILE), `${await deadPid()}\n`);
    await server.start(60_000);
    const pid = Number(readFileSync(path.join(dataDir, EMBEDDED_LOCK_FILE), "utf8"));
    expect(pid).not.toBeNaN();
  }, 90_000);

  it("makes admin:create refuse while the store runs, with a sentence saying what to do", () => {
    const refused = adminCreate();
    expect(refused.status).toBe(1);
    expect(refused.stderr).toContain(`The store is running on the embedded database in ${dataDir}`);
    expect(refused.stderr).toContain("stop it first, or use DATABASE_URL");
    expect(refused.stdout).not.toContain("Created");
  }, 90_000);

  it("creates the owner once the store is stopped, and the owner signs in after the store starts again", async () => {
    await server.stop();
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);
    const created = adminCreate();
    expect(created.stderr).toBe("");
    expect(created.stdout).toContain(`Created the owner account ${owner.email}`);
    expect(created.status).toBe(0);
    expect(existsSync(path.join(dataDir, EMBEDDED_LOCK_FILE))).toBe(false);

    await server.start(60_000);
    const answer = await fetch(`${server.baseUrl}/v1/user/login`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ username: owner.email, password: owner.password }),
    });
    expect(answer.status).toBe(200);
  }, 120_000);
});
