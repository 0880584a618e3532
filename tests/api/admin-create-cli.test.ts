import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { embeddedDatabasePath, openDatabase } from "../../api/db/client";
import { createLogger } from "../../api/logger";

/*
 * Issue 37 item 8: `npm run admin:create` takes the password from standard input, so it need not be on the
 * command line, where the process list shows it to every user of the machine. `--password-stdin` reads the
 * first piped line; without any password option a piped line is read too (a terminal is asked, twice).
 */

const dataDir = mkdtempSync(path.join(tmpdir(), "store-admin-create-"));
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));

/** The command as an operator runs it, `input` piped to its standard input. */
function adminCreate(args: string[], input: string) {
  const result = spawnSync(process.execPath, ["--import", "tsx", "api/admin-create-cli.ts", ...args], {
    env: { ...process.env, NODE_ENV: "development", DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_MIGRATION_URL: "" },
    input,
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, stdout: result.stdout, stderr: result.stderr };
}

/** Which of these email and password pairs sign in as owners, on the data folder the commands wrote. */
async function ownersSigningIn(accounts: [email: string, password: string][]) {
  const database = await openDatabase(embeddedDatabasePath(dataDir));
  try {
    const config = loadConfig({ NODE_ENV: "test", DATA_DIR: dataDir } as NodeJS.ProcessEnv);
    const api = createApi({ db: database.db, config, logger: createLogger("silent") });
    const call = async (path: string, init: RequestInit) =>
      (await (await api.request(path, init, { clientIp: "198.18.7.1" })).json()) as {
        payload?: Record<string, string>;
      };
    const owners: string[] = [];
    for (const [email, password] of accounts) {
      const login = await call("/v1/user/login", {
        method: "POST",
        headers: { "content-type": "application/json" },
        body: JSON.stringify({ username: email, password }),
      });
      if (!login.payload?.token) continue;
      const me = await call("/v1/admin/me", { headers: { authorization: `Bearer ${login.payload.token}` } });
      if (me.payload?.role === "owner") owners.push(email);
    }
    return owners;
  } finally {
    await database.close();
  }
}

describe("npm run admin:create with the password on standard input", () => {
  it(
    "reads it with --password-stdin, or from a piped line without it; refuses both ways at once or none",
    { timeout: 120_000 },
    async () => {
      const explicit = adminCreate(
        ["--email", "stdin.owner@example.com", "--password-stdin"],
        "a long piped password\n",
      );
      expect(explicit.status, explicit.stderr).toBe(0);
      expect(explicit.stdout).toContain("Created the owner account stdin.owner@example.com");

      // No option at all, and standard input is a pipe, not a terminal: its first line is the password.
      const piped = adminCreate(
        ["--email", "piped.owner@example.com"],
        "another piped password\nignored second line\n",
      );
      expect(piped.status, piped.stderr).toBe(0);

      const both = adminCreate(
        ["--email", "both@example.com", "--password", "on the command line", "--password-stdin"],
        "and piped\n",
      );
      expect(both.status).toBe(1);
      expect(both.stderr).toContain("either with --password or on standard input, not both");

      const none = adminCreate(["--email", "none@example.com", "--password-stdin"], "");
      expect(none.status).toBe(1);
      expect(none.stderr).toContain("Please give a password.");

      expect(
        await ownersSigningIn([
          ["stdin.owner@example.com", "a long piped password"],
          ["piped.owner@example.com", "another piped password"],
          ["both@example.com", "on the command line"],
        ]),
      ).toEqual(["stdin.owner@example.com", "piped.owner@example.com"]);
    },
  );
});
