import type { AddressInfo } from "node:net";
import { serve } from "@hono/node-server";
import { like } from "drizzle-orm";
import { Hono } from "hono";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import type { ApiEnv } from "../../api/context";
import { newId } from "../../api/db/ids";
import { rateLimits } from "../../api/db/schema";
import { requestIp } from "../../api/request-ip";
import { issueChallenge } from "../../api/services/guards/human-check";
import { RateLimitedError, cleanUpRateLimits, hitRateLimit } from "../../api/services/guards/rate-limit";
import { type AccountsTestApi, createAccountsTestApi, freshIp } from "../support/accounts";

const PASSWORD = "correct horse battery staple";
let t: AccountsTestApi;

beforeAll(async () => {
  t = await createAccountsTestApi();
});
afterAll(async () => {
  await t?.close();
});

function expectTooMany(answer: { status: number; headers: Headers; body: { message: string } }) {
  expect(answer.status).toBe(429);
  expect(answer.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
  expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
}

/**
 * The limits count in windows aligned to the clock (every 15 minutes): a test that straddles a
 * boundary would see its count restart. Waiting out the last seconds of a window keeps it whole.
 */
async function clearOfWindowBoundary(windowMs = 15 * 60_000, marginMs = 20_000) {
  const untilNext = windowMs - (Date.now() % windowMs);
  if (untilNext < marginMs) await new Promise((resolve) => setTimeout(resolve, untilNext + 50));
}

describe("rate limits on the account endpoints", () => {
  beforeEach(() => clearOfWindowBoundary(), 30_000);
  it("login: 10 tries per address and account in 15 minutes, then 429, even with the right password", async () => {
    await t.register({ username: "limited", email: "limited@example.com" });
    const ip = freshIp();
    for (let i = 0; i < 10; i++) {
      const answer = await t.post("/v1/user/login", { username: "limited", password: "wrong password" }, { ip });
      // From the sixth failure on the account asks for the human check; the tries still count.
      expect(answer.status).toBe(i < 5 ? 401 : 400);
    }
    expectTooMany(await t.post("/v1/user/login", { username: "limited", password: PASSWORD }, { ip }));
    // Another address is not blocked by this one's guesses; after that many failures it passes the human check.
    const humanCheck = issueChallenge(t.config, new Date(Date.now() - 5_000)).token;
    const elsewhere = { username: "limited", password: PASSWORD, "g-recaptcha-response": humanCheck };
    expect((await t.post("/v1/user/login", elsewhere, { ip: freshIp() })).status).toBe(200);
  });

  it("login: 50 tries per address across accounts", async () => {
    const ip = freshIp();
    for (let i = 0; i < 50; i++) {
      const answer = await t.post(
        "/v1/user/login",
        { username: `spray-${i % 25}`, password: "wrong password" },
        { ip },
      );
      expect(answer.status).toBe(401);
    }
    expectTooMany(await t.post("/v1/user/login", { username: "someone-else", password: "wrong password" }, { ip }));
  });

  it("register: 20 per address an hour", async () => {
    const ip = freshIp();
    for (let i = 0; i < 20; i++) {
      const answer = await t.post(
        "/v1/user/register",
        { username: "taken", email: "not an email", password: PASSWORD, password2: PASSWORD },
        { ip },
      );
      // Bad input is refused before it counts: a person fixing typos does not use up the limit.
      expect(answer.status).toBe(400);
    }
    for (let i = 0; i < 20; i++) {
      const answer = await t.post(
        "/v1/user/register",
        { username: `bulk${i}`, email: `bulk${i}@example.com`, password: "short", password2: "short" },
        { ip },
      );
      expect(answer.status).toBe(400);
    }
    expectTooMany(
      await t.post(
        "/v1/user/register",
        { username: "bulk-last", email: "bulk-last@example.com", password: PASSWORD, password2: PASSWORD },
        { ip },
      ),
    );
  });

  it("forget-password: 3 per email in 15 minutes, whatever the address, and the same for unknown emails", async () => {
    for (const email of ["limited@example.com", "unknown-limited@example.com"]) {
      for (let i = 0; i < 3; i++) {
        expect((await t.post("/v1/user/forget-password", { email })).status).toBe(200);
      }
      expectTooMany(await t.post("/v1/user/forget-password", { email }));
    }
  });

  it("reset-password: 10 per email in 15 minutes", async () => {
    const body = {
      email: "limited@example.com",
      otp: "000000",
      password: "a fine new passphrase",
      password2: "a fine new passphrase",
    };
    for (let i = 0; i < 10; i++) expect((await t.post("/v1/user/reset-password", body)).status).toBe(400);
    expectTooMany(await t.post("/v1/user/reset-password", body));
  });
});

describe("Retry-After on every 429", () => {
  beforeEach(() => clearOfWindowBoundary(), 30_000);
  it("the order lookup past its limit answers 429 with a numeric Retry-After, like the account routes", async () => {
    const ip = freshIp();
    const id = newId();
    for (let attempt = 0; attempt < 60; attempt++) {
      expect((await t.get(`/v1/order/read/${id}`, { ip })).status).toBe(404);
    }
    const limited = await t.get(`/v1/order/read/${id}`, { ip });
    expectTooMany(limited);
    expect(limited.headers.get("retry-after")).toMatch(/^\d+$/);
    expect(Number(limited.headers.get("retry-after"))).toBeLessThanOrEqual(15 * 60);
  });
});

describe("re-authentication in settings", () => {
  beforeEach(() => clearOfWindowBoundary(), 30_000);
  it("allows 10 current-password checks per account in 15 minutes, then 429", async () => {
    const token = await t.register({ username: "reauth", email: "reauth@example.com" });
    for (let i = 0; i < 10; i++) {
      const answer = await t.post(
        "/v1/user/update/email",
        { email: "reauth2@example.com", currentPassword: `guess ${i}` },
        { token },
      );
      expect(answer.status).toBe(400);
    }
    expectTooMany(
      await t.post("/v1/user/update/email", { email: "reauth2@example.com", currentPassword: PASSWORD }, { token }),
    );
  });
});

describe("hitRateLimit", () => {
  const rule = { name: "test:window", limit: 3, windowMs: 60_000 };

  it("counts in fixed windows and opens again in the next one", async () => {
    const start = new Date(Math.ceil(Date.now() / 60_000) * 60_000 + 60_000);
    for (let i = 0; i < 3; i++) await hitRateLimit(t.db, rule, "a", { now: new Date(start.getTime() + i * 1000) });
    const error = await hitRateLimit(t.db, rule, "a", { now: new Date(start.getTime() + 30_000) }).catch(
      (caught) => caught,
    );
    expect(error).toBeInstanceOf(RateLimitedError);
    expect(error.retryAfterSeconds).toBe(30);
    await expect(hitRateLimit(t.db, rule, "a", { now: new Date(start.getTime() + 60_000) })).resolves.toBeUndefined();
  });

  it("multiplies limits by the configured scale", async () => {
    const now = new Date();
    for (let i = 0; i < 6; i++) await hitRateLimit(t.db, rule, "scaled", { now, scale: 2 });
    await expect(hitRateLimit(t.db, rule, "scaled", { now, scale: 2 })).rejects.toBeInstanceOf(RateLimitedError);
  });

  it("never lets more than the limit through when hits arrive at once (atomic upsert)", async () => {
    const now = new Date();
    const burst = { name: "test:burst", limit: 7, windowMs: 60_000 };
    const results = await Promise.allSettled(
      Array.from({ length: 25 }, () => hitRateLimit(t.db, burst, "same", { now })),
    );
    expect(results.filter((result) => result.status === "fulfilled")).toHaveLength(7);
    const [row] = await t.db.select().from(rateLimits).where(like(rateLimits.key, "test:burst:%"));
    expect(row.hits).toBe(25);
  });

  it("cleans up windows older than a day", async () => {
    const now = new Date();
    await hitRateLimit(t.db, rule, "old", { now: new Date(now.getTime() - 25 * 60 * 60_000) });
    await hitRateLimit(t.db, rule, "recent", { now });
    await cleanUpRateLimits(t.db, now);
    const keys = (await t.db.select().from(rateLimits).where(like(rateLimits.key, "test:window:%"))).map(
      (row) => row.key,
    );
    expect(keys).not.toContain("test:window:old");
    expect(keys).toContain("test:window:recent");
  });
});

describe("requestIp", () => {
  /** A real HTTP server answering the address it would count against. */
  async function addressServer(trustProxy: boolean) {
    const app = new Hono<ApiEnv>()
      .use(async (c, next) => {
        c.set("config", { ...t.config, trustProxy });
        await next();
      })
      .get("/", (c) => c.text(requestIp(c)));
    const server = serve({ fetch: app.fetch, port: 0, hostname: "127.0.0.1" });
    await new Promise((resolve) => server.once("listening", resolve));
    const { port } = server.address() as AddressInfo;
    return {
      ask: (headers: Record<string, string> = {}) =>
        fetch(`http://127.0.0.1:${port}/`, { headers }).then((answer) => answer.text()),
      close: () => new Promise((resolve) => server.close(resolve)),
    };
  }

  it("uses the socket address and ignores X-Forwarded-For unless TRUST_PROXY is set", async () => {
    const server = await addressServer(false);
    try {
      expect(await server.ask()).toBe("127.0.0.1");
      expect(await server.ask({ "x-forwarded-for": "203.0.113.9" })).toBe("127.0.0.1");
    } finally {
      await server.close();
    }
  });

  it("behind a trusted proxy takes the address the proxy appended, not one the client wrote", async () => {
    const server = await addressServer(true);
    try {
      expect(await server.ask({ "x-forwarded-for": "198.18.0.1, 203.0.113.9" })).toBe("203.0.113.9");
      expect(await server.ask()).toBe("127.0.0.1");
    } finally {
      await server.close();
    }
  });

  it("takes the address the web layer passes for in-process calls", async () => {
    const app = new Hono<ApiEnv>().get("/", (c) => c.text(requestIp(c)));
    const answer = await app.request("/", {}, { clientIp: "::ffff:192.0.2.8" });
    expect(await answer.text()).toBe("192.0.2.8");
  });
});
