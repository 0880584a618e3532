import { tmpdir } from "node:os";
import path from "node:path";
import { defineConfig, devices } from "@playwright/test";

const PORT = Number(process.env.E2E_PORT ?? 7410);
export const baseURL = `http://localhost:${PORT}`;
/** The e2e server's DATA_DIR, one per port; specs read the mail it writes to outbox/ there. */
export const e2eDataDir = path.join(tmpdir(), `store-e2e-${PORT}`);

// Debian's chromium, never a downloaded browser; quiet on this closed network.
const chromium = {
  ...devices["Desktop Chrome"],
  launchOptions: {
    executablePath: process.env.CHROMIUM_PATH ?? "/usr/bin/chromium",
    args: [
      "--headless",
      "--no-sandbox",
      "--disable-gpu",
      "--disable-quic",
      "--no-first-run",
      "--disable-background-networking",
      "--disable-component-update",
      "--disable-sync",
    ],
  },
};

export default defineConfig({
  testDir: "tests/e2e",
  outputDir: process.env.E2E_OUTPUT ?? "test-results",
  fullyParallel: true,
  workers: 2,
  retries: process.env.CI ? 1 : 0,
  timeout: 30_000,
  expect: { timeout: 7_000 },
  reporter: process.env.CI ? [["list"]] : [["list"]],
  // A trace records every action of every test (18% of the suite's time, ADR 064): CI keeps the retry's trace.
  use: { baseURL, trace: process.env.CI ? "on-first-retry" : "retain-on-failure" },
  projects: [
    { name: "js", use: { ...chromium, javaScriptEnabled: true } },
    { name: "no-js", use: { ...chromium, javaScriptEnabled: false } },
  ],
  webServer: {
    command: "node --import tsx tests/support/e2e-server.ts",
    url: `${baseURL}/healthz`,
    reuseExistingServer: false,
    timeout: 120_000,
    env: { PORT: String(PORT), E2E_DATA_DIR: e2eDataDir },
    stdout: "pipe",
    stderr: "pipe",
  },
});
