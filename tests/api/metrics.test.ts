import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { productOptions } from "../../api/db/schema";
import { startRetention } from "../../api/jobs";
import { createLogger } from "../../api/logger";
import { answerMetrics } from "../../api/metrics";
import { signSandboxEvent } from "../../api/payments/sandbox";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * GET /metrics (api/metrics.ts, served by server.ts): only for the bearer of METRICS_TOKEN, and after a paid
 * order its counters have moved, with nothing personal in any label. The HTTP histogram's labels, which need
 * a real server, are checked in tests/api/probes.test.ts.
 */

const TOKEN = "metrics-test-token-0123456789abcdefghij";
let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

async function scrape(): Promise<string> {
  const answer = await answerMetrics(client.db, TOKEN, `Bearer ${TOKEN}`);
  expect(answer.status).toBe(200);
  expect(answer.contentType).toMatch(/^text\/plain; version=0\.0\.4/);
  return answer.body;
}

/** The value of one series (`name{labels}` exactly as prom-client writes it), 0 when absent. */
function valueOf(text: string, series: string): number {
  const line = text.split("\n").find((row) => row.startsWith(`${series} `));
  return line ? Number(line.slice(series.length + 1)) : 0;
}

/** Every label value of every series. */
function labelValues(text: string): string[] {
  return [...text.matchAll(/^[a-z_:]+\{([^}]*)\}/gm)].flatMap((match) =>
    [...match[1].matchAll(/="((?:[^"\\]|\\.)*)"/g)].map((value) => value[1]),
  );
}

describe("GET /metrics", () => {
  it("is not there without METRICS_TOKEN, and refuses a missing or wrong token with 401", async () => {
    expect((await answerMetrics(client.db, undefined, `Bearer ${TOKEN}`)).status).toBe(404);
    expect((await answerMetrics(client.db, TOKEN, undefined)).status).toBe(401);
    expect((await answerMetrics(client.db, TOKEN, `Bearer ${TOKEN.slice(0, -1)}x`)).status).toBe(401);
    expect((await answerMetrics(client.db, TOKEN, TOKEN)).status).toBe(401);
    const refused = await answerMetrics(client.db, TOKEN, `Bearer ${TOKEN}extra`);
    expect(refused).toMatchObject({ status: 401, headers: { "WWW-Authenticate": 'Bearer realm="metrics"' } });
    expect(refused.body).not.toContain("store_");
  });

  it("counts a paid order, its payment and webhook, shows the mail backlog and low stock, and no id or email in a label", async () => {
    const customer = await createCustomer(client.db);
    const { optionId, productId } = await createListing(client.db, { stock: 3 });
    // Under its threshold once the order takes a credential.
    await client.db.update(productOptions).set({ lowStockThreshold: 3 }).where(eq(productOptions.id, optionId));
    const before = await scrape();

    await addToCart(client, customer.token, optionId);
    const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    expect(created.status, created.body.message).toBe(201);
    const paymentId = decodeURIComponent(String(created.body.payload.paymentUrl).split("/pay/sandbox/")[1]);
    const paid = await client.post(`/v1/sandbox/payments/${encodeURIComponent(paymentId)}/pay`);
    expect(paid.status, paid.body.message).toBe(200);
    // A forged delivery, and one to a gateway named by an address: counted, under no name of theirs.
    const forged = signSandboxEvent(
      { paymentId, amountCents: 1, currency: "USD", outcome: "paid" },
      { ...client.config, sessionSecrets: ["another-secret-".padEnd(40, "z")] },
    );
    expect((await client.post("/v1/webhooks/sandbox", forged.body, { headers: forged.headers })).status).toBe(400);
    const oddGateway = `/v1/webhooks/${encodeURIComponent(customer.email)}`;
    expect((await client.post(oddGateway, "{}", { headers: { "content-type": "application/json" } })).status).toBe(404);

    const after = await scrape();
    const moved = (series: string) => valueOf(after, series) - valueOf(before, series);
    expect(moved('store_orders_created_total{payment_method="sandbox"}')).toBe(1);
    expect(moved('store_orders_paid_total{payment_method="sandbox"}')).toBe(1);
    expect(moved('store_payments_total{gateway="sandbox",outcome="paid"}')).toBe(1);
    expect(moved('store_webhooks_total{gateway="sandbox",outcome="applied"}')).toBe(1);
    expect(moved('store_webhooks_total{gateway="sandbox",outcome="rejected"}')).toBe(1);
    expect(moved('store_webhooks_total{gateway="other",outcome="rejected"}')).toBe(1);
    // The delivery mail waits in the outbox (no mailer runs here).
    expect(valueOf(after, 'store_outbox_backlog{outbox="mail"}')).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, 'store_outbox_oldest_age_seconds{outbox="mail"}')).toBeGreaterThanOrEqual(0);
    expect(valueOf(after, "store_stock_options_below_threshold")).toBeGreaterThanOrEqual(1);
    expect(valueOf(after, "store_database_up")).toBe(1);
    expect(after).toContain('store_job_lag_seconds{task="order-expiry"}');
    expect(valueOf(after, "store_ready")).toBe(1);
    // prom-client's default process and Node.js metrics.
    expect(after).toContain("process_cpu_user_seconds_total");
    expect(after).toContain("nodejs_heap_size_used_bytes");

    const personal = [customer.email, customer.id, optionId, productId, created.body.payload.orderId, paymentId];
    for (const value of labelValues(after)) {
      expect(value).not.toContain("@");
      for (const secret of personal) expect(value).not.toContain(secret);
    }
  });

  it("counts retention runs under task, and reads when the rules last ran (issue 37)", async () => {
    const before = await scrape();
    const runs = 'store_job_runs_total{task="retention",outcome="ok"}';
    // Every task's series is there before its first run, at 0.
    expect(before).toContain('store_job_runs_total{task="retention",outcome="error"} 0');
    const retention = startRetention({ db: client.db, config: client.config, logger: createLogger("silent") });
    await retention.stop();
    const after = await scrape();
    expect(valueOf(after, runs) - valueOf(before, runs)).toBe(1);
    const lastRun = valueOf(after, "store_retention_last_run_timestamp_seconds");
    expect(Math.abs(lastRun - Date.now() / 1000)).toBeLessThan(60);
  });
});
