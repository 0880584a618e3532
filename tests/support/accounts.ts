import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { createApi } from "../../api/app";
import { type Config, loadConfig } from "../../api/config";
import type { Database } from "../../api/db/client";
import { createLogger } from "../../api/logger";
import { createTestDatabase } from "./database";

export type AccountsTestApi = Awaited<ReturnType<typeof createAccountsTestApi>>;
type Answer = {
  status: number;
  headers: Headers;
  body: { success: boolean; message: string; payload?: any; errors?: any; humanCheckRequired?: boolean };
};
type CallOptions = { token?: string; ip?: string };

let addressCounter = 0;
/** A fresh client address, so one test's rate-limit counts never reach another's. */
export function freshIp(): string {
  addressCounter++;
  return `198.51.${Math.floor(addressCounter / 250) % 250}.${(addressCounter % 250) + 1}`;
}

function testConfig(dataDir: string, env: Record<string, string>): Config {
  return loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SESSION_SECRET: "accounts-test-secret-".padEnd(48, "x"),
    CATALOGUE_CACHE_MS: "0",
    ...env,
  } as NodeJS.ProcessEnv);
}

/** A JSON client for one /v1 app: each request from `ip` (default: a fresh address) with an optional bearer token. */
function clientFor(db: Database, config: Config) {
  const logger = createLogger("silent");
  const api = createApi({ db, config, logger });

  async function call(method: string, url: string, body: unknown, options: CallOptions = {}): Promise<Answer> {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    const response = await api.request(
      url,
      {
        method,
        headers,
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      },
      { clientIp: options.ip ?? freshIp() },
    );
    return { status: response.status, headers: response.headers, body: await response.json() };
  }

  return {
    api,
    db,
    config,
    logger,
    get: (url: string, options?: CallOptions) => call("GET", url, undefined, options),
    post: (url: string, body: unknown = {}, options?: CallOptions) => call("POST", url, body, options),
    /** Registers an account with a confirmed password and answers its first token. */
    async register(fields: { username: string; email: string; password?: string }, ip?: string) {
      const password = fields.password ?? "correct horse battery staple";
      const answer = await call("POST", "/v1/user/register", { ...fields, password, password2: password }, { ip });
      if (answer.status !== 201) throw new Error(`register failed: ${answer.status} ${answer.body.message}`);
      return answer.body.payload.token as string;
    },
  };
}

/**
 * A /v1 app on a fresh database (PGlite, or PostgreSQL with TEST_DATABASE_URL) whose config the
 * test can see and extend (DATA_DIR is a scratch folder). Every request comes from a fresh
 * address unless the test names one, so rate limits only meet where a test wants them to.
 * `withConfig` gives another app on the same database (another human-check provider, say).
 */
export async function createAccountsTestApi(env: Record<string, string> = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-accounts-"));
  const database = await createTestDatabase();
  return {
    ...clientFor(database.db, testConfig(dataDir, env)),
    dataDir,
    withConfig: (moreEnv: Record<string, string>) =>
      clientFor(database.db, testConfig(dataDir, { ...env, ...moreEnv })),
    async close() {
      await database.close();
      rmSync(dataDir, { recursive: true, force: true });
    },
  };
}
