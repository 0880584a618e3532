import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { createLeastPrivilegeDatabase } from "../support/database";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * The operator's endpoints on a real server process (server.ts, API only): /healthz (liveness), /readyz
 * (readiness) and /metrics, whose request duration histogram is labelled by route pattern, never by the
 * path. On the embedded database by default; with TEST_DATABASE_URL on a PostgreSQL database that the test
 * then drops under the running server: /readyz answers 503 and /healthz still 200.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const TOKEN = "probes-test-metrics-token-0123456789abcdef";
let scratch: Awaited<ReturnType<typeof createLeastPrivilegeDatabase>> | undefined;
let server: ApiServerProcess;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-probes-"));
  if (adminUrl) scratch = await createLeastPrivilegeDatabase(adminUrl, "store_probes");
  server = new ApiServerProcess(await freePort(), {
    NODE_ENV: "production",
    SESSION_SECRET: "probes-test-session-secret-long-enough-0123",
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
}, 90_000);

afterAll(async () => {
  await server?.kill();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

const get = (url: string, headers: Record<string, string> = {}) =>
  fetch(server.baseUrl + url, { headers, signal: AbortSignal.timeout(10_000) });

describe("a running instance", () => {
  it("is live and ready", async () => {
    expect((await get("/healthz")).status).toBe(200);
    const ready = await get("/readyz");
    expect(ready.status).toBe(200);
    expect(await ready.json()).toEqual({ status: "ready" });
  });

  it("serves /metrics to the token's bearer only, its histogram labelled by route pattern", async () => {
    const orderId = "AAAAAAAAAAAAAAAAAAAAAA";
    const email = "someone@example.com";
    await get(`/v1/order/read/${orderId}`);
    await get(`/v1/no-such-thing/${encodeURIComponent(email)}`);
    await get("/v1/product/read");

    expect((await get("/metrics")).status).toBe(401);
    expect((await get("/metrics", { authorization: "Bearer wrong-token-of-the-right-length-0123456" })).status).toBe(
      401,
    );
    const answer = await get("/metrics", { authorization: `Bearer ${TOKEN}` });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("cache-control")).toBe("no-store");
    const text = await answer.text();
    expect(text).toMatch(
      /store_http_request_duration_seconds_count\{method="GET",route="\/v1\/order\/read\/:id",route_class="account",status="\d+"\} 1/,
    );
    expect(text).toMatch(
      /store_http_request_duration_seconds_count\{method="GET",route="\/v1 unmatched",route_class="unmatched",status="404"\} 1/,
    );
    expect(text).toMatch(
      /store_http_request_duration_seconds_count\{method="GET",route="\/v1\/product\/read",route_class="shop",status="200"\} 1/,
    );
    expect(text).toMatch(/route="\/readyz",route_class="probe",status="200"/);
    expect(text).not.toContain(orderId);
    expect(text).not.toContain("example.com");
    expect(text).toContain("process_resident_memory_bytes");
  });

  it.skipIf(!adminUrl)("is not ready, but still live, once its database is gone", async () => {
    await scratch!.drop();
    const ready = await get("/readyz");
    expect(ready.status).toBe(503);
    expect(await ready.json()).toEqual({ status: "database unavailable" });
    expect((await get("/healthz")).status).toBe(200);
  });
});
