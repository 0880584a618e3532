/*
 * What server.ts promises every response: security headers, the cross-site post guard,
 * caching and compression, the /v1 404 envelope, and a clean stop on SIGTERM.
 * Checks that need no browser run once, in the "js" project.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { type APIResponse, expect, test } from "@playwright/test";
import { createScratchPostgresDatabase } from "../support/database";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";
import { onlyInProject } from "../support/e2e-projects";

const onlyOnce = () => test.skip(test.info().project.name !== "js", "an HTTP-level check; the js project runs it");

function cspNonce(response: APIResponse): string {
  const csp = response.headers()["content-security-policy"] ?? "";
  const nonce = /'nonce-([^']+)'/.exec(csp)?.[1];
  expect(nonce, `no nonce in CSP: ${csp}`).toBeTruthy();
  return nonce as string;
}

/** Every <script> on the page must carry the request's nonce, or the CSP blocks it. */
async function expectScriptsCarryNonce(response: APIResponse) {
  const nonce = cspNonce(response);
  const scriptTags = (await response.text()).match(/<script\b[^>]*>/g) ?? [];
  expect(scriptTags.length).toBeGreaterThan(0);
  for (const tag of scriptTags) expect(tag).toContain(`nonce="${nonce}"`);
}

test.describe("HTTP behaviour", () => {
  test.beforeEach(onlyOnce);

  test("a page carries the security headers and a per-request script nonce", async ({ request }) => {
    // Renderings, each its own: a page the anonymous cache stored is allowed by its scripts' hashes instead
    // (tests/e2e/page-cache.spec.ts).
    const response = await request.get(`/?rendering=${Date.now()}-1`);
    expect(response.status()).toBe(200);
    const headers = response.headers();
    expect(headers["x-content-type-options"]).toBe("nosniff");
    expect(headers["referrer-policy"]).toBe("strict-origin-when-cross-origin");
    expect(headers["x-frame-options"]).toBe("DENY");
    expect(headers["x-powered-by"]).toBeUndefined();
    const csp = headers["content-security-policy"];
    expect(csp).toContain("frame-ancestors 'none'");
    expect(csp).toContain("object-src 'none'");
    expect(csp).toContain("default-src 'self'");
    await expectScriptsCarryNonce(response);
    const again = await request.get(`/?rendering=${Date.now()}-2`);
    expect(cspNonce(again)).not.toBe(cspNonce(response));
  });

  test("a not-found page also runs only nonced scripts", async ({ request }) => {
    const response = await request.get("/no-such-page-anywhere");
    expect(response.status()).toBe(404);
    await expectScriptsCarryNonce(response);
  });

  test("/healthz answers ok", async ({ request }) => {
    const response = await request.get("/healthz");
    expect(response.status()).toBe(200);
    expect(await response.json()).toMatchObject({ status: "ok" });
  });

  test("a cross-site post to a page is refused; /v1 is not subject to the origin check", async ({
    request,
    baseURL,
  }) => {
    const form = { intent: "anything" };
    const foreignOrigin = await request.post("/", { form, headers: { origin: "http://evil.example" } });
    expect(foreignOrigin.status()).toBe(403);
    const crossSite = await request.post("/", { form, headers: { "sec-fetch-site": "cross-site" } });
    expect(crossSite.status()).toBe(403);
    const sameOrigin = await request.post("/", {
      form,
      headers: { origin: baseURL as string, "sec-fetch-site": "same-origin" },
    });
    expect(sameOrigin.status()).not.toBe(403);
    const api = await request.post("/v1/no-such-endpoint", { data: {}, headers: { origin: "http://evil.example" } });
    expect(api.status()).not.toBe(403);
    expect(api.headers()["content-type"]).toContain("application/json");
  });

  test("hashed assets are cached for a year as immutable", async ({ request }) => {
    const html = await (await request.get("/")).text();
    const assets = [...html.matchAll(/(?:href|src)="(\/assets\/[^"]+\.(?:js|css))"/g)].map((match) => match[1]);
    expect(assets.length).toBeGreaterThan(0);
    for (const asset of new Set(assets)) {
      const response = await request.get(asset);
      expect(response.status(), asset).toBe(200);
      expect(response.headers()["cache-control"], asset).toContain("immutable");
      expect(response.headers()["cache-control"], asset).toContain("max-age=31536000");
    }
  });

  test("responses are compressed only when the client asks", async ({ request }) => {
    const gzipped = await request.get("/", { headers: { "accept-encoding": "gzip" } });
    expect(gzipped.headers()["content-encoding"]).toBe("gzip");
    expect(gzipped.headers()["vary"]).toMatch(/accept-encoding/i);
    expect(await gzipped.text()).toContain("</html>");
    const plain = await request.get("/", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers()["content-encoding"]).toBeUndefined();
  });

  test("an unknown /v1 path answers the 404 JSON envelope", async ({ request }) => {
    const response = await request.get("/v1/no-such-endpoint");
    expect(response.status()).toBe(404);
    expect(response.headers()["content-type"]).toContain("application/json");
    expect(await response.json()).toEqual({ success: false, message: expect.any(String) });
  });
});

test.describe("a cross-site form", () => {
  onlyInProject("no-js", "the foreign page has no scripts and the refusal is the server's (ADR 062)");

  test("a form on another site cannot post to the store", async ({ page, baseURL }) => {
    // A real cross-site form, so the browser itself sets Origin and Sec-Fetch-Site.
    await page.route("http://evil.example/**", (route) =>
      route.fulfill({
        contentType: "text/html",
        body: `<form method="post" action="${baseURL}/"><input name="intent" value="steal"><button>Go</button></form>`,
      }),
    );
    await page.goto("http://evil.example/");
    const [response] = await Promise.all([
      page.waitForResponse((candidate) => candidate.url() === `${baseURL}/` && candidate.request().method() === "POST"),
      page.getByRole("button", { name: "Go" }).click(),
    ]);
    expect(response.status()).toBe(403);
    await expect(page.getByText("Cross-site form posts are not allowed.")).toBeVisible();
  });
});

test("the page's scripts run under the CSP", async ({ page }) => {
  test.skip(test.info().project.name !== "js", "needs JavaScript");
  const violations: string[] = [];
  page.on("console", (message) => {
    if (/content security policy/i.test(message.text())) violations.push(message.text());
  });
  await page.goto("/");
  // Remix creates its router only when the entry script ran and hydrated the page.
  await expect
    .poll(() => page.evaluate(() => typeof (window as { __remixRouter?: unknown }).__remixRouter))
    .toBe("object");
  expect(violations).toEqual([]);
});

async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise((resolve) => server.close(resolve));
  return port;
}

test.describe("request ids", () => {
  test.beforeEach(onlyOnce);

  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  test.afterEach(() => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
  });

  type LogLine = { message: string; requestId?: string; path?: string; status?: number };

  test("a page request's id is in its answer, its access log line and the log line of its /v1 call", async () => {
    test.setTimeout(120_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "store-request-id-"));
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        SESSION_SECRET: "request-id-test-secret-that-is-long-enough-0123",
        CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
        DATA_DIR: dataDir,
        DATABASE_URL: "",
        PORT: String(port),
        SEED_DEMO: "false",
        // The API's line for each in-process call is a debug line.
        LOG_LEVEL: "debug",
        PAGE_CACHE_MS: "0",
      },
    });
    let log = "";
    child.stdout?.on("data", (chunk) => (log += chunk));
    child.stderr?.on("data", (chunk) => (log += chunk));
    const lines = () =>
      log
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as LogLine);
    const base = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 90_000 })
      .toBe(200);

    // The FAQ page's loader reads the FAQ from /v1, in-process.
    const page = await fetch(`${base}/faqs`);
    expect(page.status).toBe(200);
    const requestId = page.headers.get("x-request-id") ?? "";
    // Without ONION_URL no page names an onion twin (with it: tests/e2e/privacy.spec.ts).
    expect(page.headers.get("onion-location")).toBeNull();
    expect(requestId).toMatch(/^[0-9a-f-]{36}$/);
    // The access line is written once the answer is sent.
    await expect.poll(() => lines().some((line) => line.requestId === requestId && line.message === "http")).toBe(true);
    const sameRequest = lines().filter((line) => line.requestId === requestId);
    expect(sameRequest).toContainEqual(expect.objectContaining({ message: "http", path: "/faqs", status: 200 }));
    expect(sameRequest).toContainEqual(
      expect.objectContaining({ message: "api", path: expect.stringMatching(/^\/v1\//) }),
    );

    // Each page request gets its own; a well-formed id from a proxy in front is kept, free text is not.
    const other = await fetch(`${base}/faqs`);
    expect(other.headers.get("x-request-id")).not.toBe(requestId);
    const proxied = await fetch(`${base}/faqs`, { headers: { "x-request-id": "lb-7f3a9c21e5" } });
    expect(proxied.headers.get("x-request-id")).toBe("lb-7f3a9c21e5");
    await expect
      .poll(() => lines().filter((line) => line.requestId === "lb-7f3a9c21e5" && line.message === "api").length)
      .toBeGreaterThanOrEqual(1);
    const forged = await fetch(`${base}/faqs`, { headers: { "x-request-id": "not an id, just words" } });
    expect(forged.headers.get("x-request-id")).toMatch(/^[0-9a-f-]{36}$/);

    // A direct /v1 call's access line names the id its answer carries.
    const api = await fetch(`${base}/v1/no-such-endpoint`);
    const apiRequestId = api.headers.get("x-request-id");
    expect(apiRequestId).toBeTruthy();
    await expect
      .poll(() =>
        lines().some((line) => line.message === "http" && line.requestId === apiRequestId && line.status === 404),
      )
      .toBe(true);
  });
});

test.describe("graceful shutdown", () => {
  test.beforeEach(onlyOnce);

  let child: ChildProcess | undefined;
  let dataDir: string | undefined;
  let dropDatabase: (() => Promise<void>) | undefined;
  test.afterEach(async () => {
    if (child && child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    if (dataDir) rmSync(dataDir, { recursive: true, force: true });
    await dropDatabase?.().catch(() => {});
  });

  test("SIGTERM stops accepting, finishes the in-flight request, and exits 0 promptly", async () => {
    test.setTimeout(120_000);
    dataDir = mkdtempSync(path.join(tmpdir(), "store-shutdown-"));
    const scratch = process.env.TEST_DATABASE_URL
      ? await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL, "store_shutdown")
      : undefined;
    dropDatabase = scratch?.drop;
    const port = await freePort();
    child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
      stdio: ["ignore", "pipe", "pipe"],
      env: {
        ...process.env,
        NODE_ENV: "production",
        SESSION_SECRET: "shutdown-test-secret-that-is-long-enough-0123",
        CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
        DATA_DIR: dataDir,
        DATABASE_URL: scratch?.url ?? "",
        PORT: String(port),
        SEED_DEMO: "false",
        LOG_LEVEL: "info",
      },
    });
    let log = "";
    child.stdout?.on("data", (chunk) => (log += chunk));
    child.stderr?.on("data", (chunk) => (log += chunk));
    const exited = new Promise<{ code: number | null; at: number }>((resolve) =>
      child?.on("exit", (code) => resolve({ code, at: Date.now() })),
    );
    const base = `http://127.0.0.1:${port}`;
    await expect
      .poll(async () => (await fetch(`${base}/healthz`).catch(() => undefined))?.status, { timeout: 90_000 })
      .toBe(200);

    // A keep-alive client whose request is under way: headers sent, final blank line not yet.
    const socket = net.connect(port, "127.0.0.1");
    let answer = "";
    let answeredAt = 0;
    socket.on("data", (chunk) => {
      answeredAt ||= Date.now();
      answer += chunk;
    });
    const socketClosed = new Promise<number>((resolve) => socket.on("close", () => resolve(Date.now())));
    await new Promise<void>((resolve) =>
      socket.write("GET /healthz HTTP/1.1\r\nHost: localhost\r\nConnection: keep-alive\r\n", () => resolve()),
    );

    child.kill("SIGTERM");
    await expect.poll(() => log, { timeout: 10_000 }).toContain("shutting down");
    // No new connections once it is stopping.
    await expect(fetch(`${base}/healthz`)).rejects.toThrow();

    socket.write("\r\n");
    const closedAt = await socketClosed;
    expect(answer).toMatch(/^HTTP\/1\.1 200 /);
    expect(answer).toMatch(/\r\nConnection: close\r\n/i);
    expect(answer).toContain('"status":"ok"');

    const { code, at } = await exited;
    expect(code, log).toBe(0);
    expect(log).toContain('"message":"stopped"');
    // The connection is not held open until the keep-alive timeout (5 s), nor the process until the 10 s force-close.
    expect(closedAt - answeredAt).toBeLessThan(3_000);
    expect(at - answeredAt).toBeLessThan(8_000);
  });
});
