/*
 * The production build, started with the demo catalogue on a temporary embedded database, for scripts that
 * measure real pages (`npm run size`'s HTML budgets, bench/compression-levels.ts). Plain JavaScript so the
 * size check runs under node alone; the server itself runs under tsx like `npm run serve`. Loopback only.
 */
import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import net from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath } from "node:url";

const root = fileURLToPath(new URL("..", import.meta.url));

async function freePort() {
  const probe = net.createServer();
  await new Promise((resolve) => probe.listen(0, "127.0.0.1", resolve));
  const { port } = probe.address();
  await new Promise((resolve) => probe.close(resolve));
  return port;
}

/**
 * Starts the store on `buildDir` (default build/) and resolves once /healthz answers, with its base URL and a
 * stop() that ends it and removes its data. `env` adds to the server's environment (PAGE_CACHE_MS=0, ...).
 */
export async function startDemoStore({ buildDir = "build", env = {}, timeoutMs = 300_000 } = {}) {
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-demo-"));
  const port = await freePort();
  const child = spawn(process.execPath, ["--import", "tsx", "server.ts"], {
    cwd: root,
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      DATA_DIR: dataDir,
      DATABASE_URL: "",
      BUILD_DIR: buildDir,
      SEED_DEMO: "true",
      SESSION_SECRET: "demo-store-session-secret-that-is-long-enough-0123",
      CREDENTIALS_KEY: Buffer.from("demo-store-credentials-key-32b!!").toString("base64"),
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: ["ignore", "ignore", "pipe"],
  });
  let output = "";
  child.stderr.on("data", (chunk) => (output = (output + chunk).slice(-4_000)));
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      const exited = new Promise((resolve) => child.once("exit", resolve));
      child.kill("SIGTERM");
      const forced = setTimeout(() => child.kill("SIGKILL"), 5_000);
      await exited;
      clearTimeout(forced);
    }
    rmSync(dataDir, { recursive: true, force: true });
  };
  const baseUrl = `http://127.0.0.1:${port}`;
  const deadline = Date.now() + timeoutMs;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) {
      await stop();
      throw new Error(`the store exited with code ${child.exitCode} while starting:\n${output}`);
    }
    const healthy = await fetch(`${baseUrl}/healthz`, { signal: AbortSignal.timeout(1_000) }).then(
      (response) => response.ok,
      () => false,
    );
    if (healthy) return { baseUrl, stop };
    await new Promise((resolve) => setTimeout(resolve, 250));
  }
  await stop();
  throw new Error(`the store did not answer /healthz within ${timeoutMs / 1000} s:\n${output}`);
}

/** The pages whose bytes are budgeted and measured: /shop, and a product page (the shop behind its dialog). */
export async function demoPages(baseUrl) {
  const list = await fetch(`${baseUrl}/v1/product/read`).then((response) => response.json());
  const productId = list.payload?.[0]?._id;
  if (!productId) throw new Error("/v1/product/read listed no product");
  return [
    { label: "/shop", path: "/shop" },
    { label: "product page /shop/{id}", path: `/shop/${productId}` },
  ];
}

/** A page's HTML as sent without compression (no Accept-Encoding, no cookie). */
export async function pageHtml(baseUrl, urlPath) {
  const response = await fetch(baseUrl + urlPath, { headers: { "accept-encoding": "identity" }, redirect: "manual" });
  if (response.status !== 200) throw new Error(`${urlPath} answered ${response.status}`);
  return Buffer.from(await response.arrayBuffer());
}
