import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { createLogger } from "../../api/logger";
import { type TestDatabaseHandle, createTestDatabase } from "../support/database";

/** What the process writes, through the real logger, while a query fails on a value a customer typed. */
let database: TestDatabaseHandle;
let written: string[];

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database.close());
afterEach(() => vi.restoreAllMocks());

function captureOutput() {
  written = [];
  for (const stream of ["stdout", "stderr"] as const) {
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      written.push(String(chunk));
      return true;
    });
  }
}

describe("the log line of an unexpected error", () => {
  it("names the error's class, code, request id and path, never the failed query's parameters", async () => {
    const config = loadConfig({
      NODE_ENV: "test",
      DATA_DIR: "/tmp/store-test-data",
      SESSION_SECRET: "error-log-secret-".padEnd(40, "x"),
    });
    const api = createApi({ db: database.db, config, logger: createLogger("debug") });
    // Sign-in looks the account up by what was typed: without its table that query fails.
    await database.asOwner("alter table users rename to users_elsewhere");
    captureOutput();
    const response = await api.request(
      "/v1/user/login",
      {
        method: "POST",
        headers: { "content-type": "application/json", "x-request-id": "req-error-log-1" },
        body: JSON.stringify({ username: "jo.private@example.com", password: "Correct horse battery 9" }),
      },
      { clientIp: "203.0.113.9" },
    );
    vi.restoreAllMocks();
    await database.asOwner("alter table users_elsewhere rename to users");

    expect(response.status).toBe(500);
    const entry = written.map((line) => JSON.parse(line)).find((line) => line.message === "api error");
    expect(entry).toMatchObject({
      level: "error",
      requestId: "req-error-log-1",
      method: "POST",
      path: "/v1/user/login",
      error: { class: expect.stringContaining("DrizzleQueryError"), code: "42P01" },
    });
    const everything = written.join("");
    expect(everything).not.toContain("jo.private");
    expect(everything).not.toContain("Failed query");
    expect(everything).not.toContain("203.0.113.9");
  });
});
