import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../api/config";
import { issueChallenge } from "../../api/services/guards/human-check";
import { createLeastPrivilegeDatabase } from "../support/database";
import { startSmtpReceiver, startWebhookReceiver } from "../support/receivers";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * HOLD_OUTBOUND (issue 37, ADR 054): a store started on a restored copy must not send again what the original
 * queued. With the hold on, a real server leaves queued mail and operator notifications where they are (the
 * guest's mail and the operator's webhook of a contact form, here) and says so at start; started again without
 * it, it sends them. On the embedded database, and with TEST_DATABASE_URL on a PostgreSQL database.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const SESSION_SECRET = "outbound-hold-test-session-secret-long-enough";
const WEBHOOK_SECRET = "outbound-hold-test-webhook-secret-0123456789";
const METRICS_TOKEN = "outbound-hold-test-metrics-token-0123456789";

let scratch: Awaited<ReturnType<typeof createLeastPrivilegeDatabase>> | undefined;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
let receiver: Awaited<ReturnType<typeof startWebhookReceiver>>;
let dataDir: string;
let server: ApiServerProcess | undefined;

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

async function waitFor(check: () => boolean, timeoutMs: number, what: string) {
  const deadline = Date.now() + timeoutMs;
  while (!check()) {
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}`);
    await sleep(100);
  }
}

async function storeOn(port: number, hold: boolean): Promise<ApiServerProcess> {
  const instance = new ApiServerProcess(
    port,
    {
      NODE_ENV: "production",
      SESSION_SECRET,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      DATA_DIR: dataDir,
      DATABASE_URL: scratch?.url ?? "",
      DATABASE_MIGRATION_URL: scratch?.migrationUrl ?? "",
      PUBLIC_URL: "http://store.test",
      SEED_DEMO: "false",
      SMTP_URL: smtp.url,
      NOTIFY_WEBHOOK_URL: receiver.url,
      NOTIFY_WEBHOOK_SECRET: WEBHOOK_SECRET,
      METRICS_TOKEN,
      HOLD_OUTBOUND: hold ? "true" : "",
      LOG_LEVEL: "warn",
    },
    { keepOutput: true },
  );
  await instance.start(60_000);
  return instance;
}

/** The lines of /metrics that say what waits and whether this instance holds it. */
async function outboundFigures(instance: ApiServerProcess): Promise<string[]> {
  const answer = await fetch(`${instance.baseUrl}/metrics`, { headers: { authorization: `Bearer ${METRICS_TOKEN}` } });
  const text = await answer.text();
  return text.split("\n").filter((line) => /^store_(outbox_backlog|outbound_held)\b/.test(line));
}

beforeAll(async () => {
  smtp = await startSmtpReceiver();
  receiver = await startWebhookReceiver(WEBHOOK_SECRET);
  dataDir = mkdtempSync(path.join(tmpdir(), "store-hold-"));
  if (adminUrl) scratch = await createLeastPrivilegeDatabase(adminUrl, "store_hold");
}, 60_000);

afterAll(async () => {
  await server?.kill();
  await smtp?.close();
  await receiver?.close();
  await scratch?.drop();
  rmSync(dataDir, { recursive: true, force: true });
});

describe("HOLD_OUTBOUND", () => {
  it("keeps mail and operator notifications queued, says so at start, and they go once the hold is lifted", async () => {
    const port = await freePort();
    server = await storeOn(port, true);

    // A guest's contact form: a mail to the guest and a notification to the operator's webhook, queued.
    const config = loadConfig({
      NODE_ENV: "production",
      SESSION_SECRET,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      DATA_DIR: dataDir,
    });
    const opened = await fetch(`${server.baseUrl}/v1/contact`, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        email: "guest@example.com",
        message: "Queued before the backup",
        "g-recaptcha-response": issueChallenge(config, new Date(Date.now() - 5_000)).token,
      }),
    });
    expect(opened.status).toBe(201);
    // Both workers, had they started, would have run at least once since (every 2 s).
    await sleep(3_000);
    expect(smtp.subjects).toEqual([]);
    expect(receiver.deliveries).toEqual([]);
    expect(await outboundFigures(server)).toEqual([
      "store_outbound_held 1",
      'store_outbox_backlog{outbox="mail"} 1',
      'store_outbox_backlog{outbox="notification"} 1',
    ]);
    expect(server.output).toContain("HOLD_OUTBOUND is on: queued mail and operator notifications stay queued");
    await server.stop();

    server = await storeOn(port, false);
    await waitFor(() => smtp.subjects.length > 0, 20_000, "the held mail to be sent");
    await waitFor(() => receiver.deliveries.length > 0, 20_000, "the held notification to be posted");
    expect(smtp.subjects).toHaveLength(1);
    expect(receiver.deliveries).toEqual([{ key: expect.stringMatching(/^ticket\.opened/), verified: true }]);
    expect(server.output).not.toContain("HOLD_OUTBOUND is on");
    await server.stop();
  }, 120_000);
});
