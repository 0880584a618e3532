import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { createLogger, scrubText, withFields } from "../../api/logger";

let lines: { stream: "stdout" | "stderr"; text: string }[];

beforeEach(() => {
  lines = [];
  for (const stream of ["stdout", "stderr"] as const) {
    vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
      lines.push({ stream, text: String(chunk) });
      return true;
    });
  }
});
afterEach(() => {
  vi.restoreAllMocks();
});

const everything = () => lines.map((line) => line.text).join("");

describe("createLogger", () => {
  it("writes one JSON object per line with time, level and message", () => {
    createLogger("info").info("store listening", { port: 7400 });
    expect(lines).toHaveLength(1);
    expect(lines[0].text.endsWith("\n")).toBe(true);
    const entry = JSON.parse(lines[0].text);
    expect(entry).toMatchObject({ level: "info", message: "store listening", port: 7400 });
    expect(Number.isNaN(Date.parse(entry.time))).toBe(false);
  });

  it("sends warnings and errors to stderr, the rest to stdout", () => {
    const logger = createLogger("debug");
    logger.debug("d");
    logger.info("i");
    logger.warn("w");
    logger.error("e");
    expect(lines.map((line) => line.stream)).toEqual(["stdout", "stdout", "stderr", "stderr"]);
  });

  it("drops lines below its level, and everything when silent", () => {
    const logger = createLogger("warn");
    logger.debug("hidden");
    logger.info("hidden");
    logger.warn("shown");
    createLogger("silent").error("hidden");
    expect(lines).toHaveLength(1);
    expect(everything()).not.toContain("hidden");
  });

  it("never writes password, token, secret, cookie or authorization values, however deep", () => {
    createLogger("info").info("login", {
      email: "ann@example.com",
      password: "hunter2-password-value",
      newPassword: "second-password-value",
      body: {
        token: "tok_live_value",
        nested: { apiSecret: "secret-value", items: [{ accessToken: "array-token-value" }] },
      },
      headers: { Authorization: "Bearer bearer-value", cookie: "token=cookie-value" },
      otp: "123456",
    });
    const output = everything();
    for (const value of [
      "hunter2-password-value",
      "second-password-value",
      "tok_live_value",
      "secret-value",
      "array-token-value",
      "bearer-value",
      "cookie-value",
      "123456",
    ]) {
      expect(output).not.toContain(value);
    }
    const entry = JSON.parse(output);
    expect(entry.email).toBe("ann@example.com");
    expect(entry.password).toBe("[redacted]");
    expect(entry.body.nested.items[0].accessToken).toBe("[redacted]");
  });

  it("keeps an error's message and stack readable", () => {
    createLogger("info").error("api error", { error: new Error("database went away") });
    const entry = JSON.parse(everything());
    expect(entry.error).toMatchObject({ name: "Error", message: "database went away" });
    expect(entry.error.stack).toContain("database went away");
  });

  it("adds a request's fields to every line of a bound logger", () => {
    const logger = withFields(createLogger("debug"), { requestId: "req-1234abcd" });
    logger.info("one");
    logger.error("two", { status: 500 });
    const entries = lines.map((line) => JSON.parse(line.text));
    expect(entries).toEqual([
      expect.objectContaining({ message: "one", requestId: "req-1234abcd" }),
      expect.objectContaining({ message: "two", requestId: "req-1234abcd", status: 500 }),
    ]);
  });
});

describe("scrubText", () => {
  it("takes public ids and email addresses out of paths and messages", () => {
    expect(scrubText("/v1/order/read/Q2hlY2tvdXQtb3JkZXItMQ")).toBe("/v1/order/read/[id]");
    expect(scrubText("/pay/sandbox/abc_DEF-12345678901234")).toBe("/pay/sandbox/[id]");
    expect(scrubText("no account for ann.lee+shop@example.com, try again")).toBe("no account for [email], try again");
    // Words, UUIDs and shorter or longer runs stay readable.
    expect(scrubText("/v1/faq/read 3f0c9a7e-2b1d-4c8e-9f00-1234567890ab")).toBe(
      "/v1/faq/read 3f0c9a7e-2b1d-4c8e-9f00-1234567890ab",
    );
  });

  it("takes linear time on a long path (the API logs every request's path)", () => {
    const started = performance.now();
    expect(scrubText(`/v1/sandbox/payments/${"x".repeat(200_000)}`)).toHaveLength(200_021);
    expect(scrubText(`${"a.".repeat(50_000)}@${"b".repeat(100_000)}`)).toHaveLength(200_001);
    expect(performance.now() - started).toBeLessThan(1000);
  });
});
