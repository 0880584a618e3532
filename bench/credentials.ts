/**
 * `npm run bench:credentials`: what encrypting the goods costs (issue 39, ADR 056). In one process, on a scratch
 * database (BENCH_DATABASE_URL, or PGlite in memory, whose CPU then counts too): a stock import of 100,000 lines
 * through /v1 as staff send it, and purchases (cart add, order create from the balance, the order read that shows
 * the credentials), each as this process's CPU ms (every thread) and wall ms. `-- --lines N`, `-- --purchases N`.
 */
import { parseArgs } from "node:util";
import { createApi } from "../api/app";
import { loadConfig } from "../api/config";
import { paymentGateways } from "../api/db/schema";
import { createLogger } from "../api/logger";
import { TEST_CREDENTIALS_KEY } from "../tests/support/credentials-key";
import { createTestDatabase } from "../tests/support/database";
import { createCustomer, createListing } from "../tests/support/shop";

const { values } = parseArgs({ options: { lines: { type: "string" }, purchases: { type: "string" } } });
const LINES = Number(values.lines ?? 100_000);
const PURCHASES = Number(values.purchases ?? 300);

if (process.env.BENCH_DATABASE_URL) process.env.TEST_DATABASE_URL = process.env.BENCH_DATABASE_URL;
const database = await createTestDatabase();
const db = database.db;
const config = loadConfig({
  NODE_ENV: "test",
  DATA_DIR: "/tmp/store-bench-credentials",
  SESSION_SECRET: "bench-credentials-secret-".padEnd(48, "x"),
  CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
  RATE_LIMIT_SCALE: "100000",
  CATALOGUE_CACHE_MS: "0",
} as NodeJS.ProcessEnv);
const api = createApi({ db, config, logger: createLogger("silent") });
await db.insert(paymentGateways).values({ name: "balance", label: "Balance", position: 0 });

let address = 0;
async function call(method: string, url: string, body: unknown, token: string) {
  const response = await api.request(
    url,
    {
      method,
      headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
      body: JSON.stringify(body),
    },
    { clientIp: `198.18.${(++address >> 8) & 255}.${address & 255}` },
  );
  const answer = (await response.json()) as {
    message: string;
    payload: { added: number; orderId: string; products: { creds: string[] }[] };
  };
  if (response.status >= 300) throw new Error(`${method} ${url}: ${response.status} ${answer.message}`);
  return answer;
}

async function measure(work: () => Promise<void>) {
  const cpu = process.cpuUsage();
  const started = performance.now();
  await work();
  const used = process.cpuUsage(cpu);
  return { cpuMs: (used.user + used.system) / 1000, wallMs: performance.now() - started };
}

const owner = await createCustomer(db, { role: "owner" });
const listing = await createListing(db, { stock: 0, priceCents: 100 });
const text = Array.from(
  { length: LINES },
  (_, index) => `b${index}@m.example:pw${index.toString(36)}${(index * 2654435761) % 1e9}`,
).join("\n");
const imported = await measure(async () => {
  const answer = await call(
    "POST",
    `/v1/admin/stock/${listing.optionId}/import`,
    { text, label: "bench" },
    owner.token,
  );
  if (answer.payload.added !== LINES) throw new Error(`imported ${answer.payload.added} of ${LINES}`);
});

const buyers = await Promise.all(Array.from({ length: PURCHASES }, () => createCustomer(db, { balanceCents: 10_000 })));
const purchases = await measure(async () => {
  for (const buyer of buyers) {
    await call("POST", "/v1/cart/add", { optionId: listing.optionId, quantity: 1, duration: 30 }, buyer.token);
    const created = await call("POST", "/v1/order/create", { paymentMethod: "balance" }, buyer.token);
    const read = await call("GET", `/v1/order/read/${created.payload.orderId}`, undefined, buyer.token);
    if (read.payload.products[0].creds.length !== 1) throw new Error("a purchase showed no credential");
  }
});
await database.close();

const round = (value: number) => Math.round(value * 100) / 100;
console.log(
  JSON.stringify(
    {
      database: process.env.BENCH_DATABASE_URL ? "postgres" : "pglite",
      import: { lines: LINES, cpuMs: round(imported.cpuMs), wallMs: round(imported.wallMs) },
      purchase: {
        count: PURCHASES,
        cpuMsEach: round(purchases.cpuMs / PURCHASES),
        wallMsEach: round(purchases.wallMs / PURCHASES),
      },
    },
    null,
    2,
  ),
);
