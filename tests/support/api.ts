import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import type { DatabaseHandle } from "../../api/db/client";
import { createLogger } from "../../api/logger";
import { checkAnswer, checkRequest } from "./contract";
import { createTestDatabase } from "./database";

export type TestApi = Awaited<ReturnType<typeof createTestApi>>;

/** A /v1 app on a fresh database, and a small client that speaks JSON to it in-process. */
export async function createTestApi(options: { prepare?: (handle: DatabaseHandle) => Promise<void> } = {}) {
  const database = await createTestDatabase();
  await options.prepare?.(database);
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "/tmp/store-test-data",
    SESSION_SECRET: "test-secret-".padEnd(40, "x"),
    // Every request here comes from one address; tests/api/rate-limit.test.ts checks the real limits.
    RATE_LIMIT_SCALE: "100",
    // Tests change stock and read the lists at once; tests/api/snapshot-cache.test.ts covers the cache.
    CATALOGUE_CACHE_MS: "0",
  });
  const api = createApi({ db: database.db, config, logger: createLogger("silent") });

  async function call(method: string, path: string, body?: unknown, headers: Record<string, string> = {}) {
    checkRequest(api, method, path, body);
    const response = await api.request(
      path,
      {
        method,
        headers: { ...(body === undefined ? {} : { "content-type": "application/json" }), ...headers },
        body: body === undefined ? undefined : typeof body === "string" ? body : JSON.stringify(body),
      },
      { clientIp: headers["x-test-ip"] ?? "203.0.113.7" },
    );
    const json = (await response.json()) as { success: boolean; message: string; payload?: any; errors?: any };
    checkAnswer(api, method, path, response.status, json);
    return { status: response.status, body: json };
  }

  return {
    api,
    db: database.db,
    database,
    get: (path: string, headers?: Record<string, string>) => call("GET", path, undefined, headers),
    post: (path: string, body?: unknown, headers?: Record<string, string>) => call("POST", path, body ?? {}, headers),
    put: (path: string, body?: unknown, headers?: Record<string, string>) => call("PUT", path, body ?? {}, headers),
    delete: (path: string, headers?: Record<string, string>) => call("DELETE", path, undefined, headers),
    close: () => database.close(),
  };
}
