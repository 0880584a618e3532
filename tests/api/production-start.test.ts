import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { loadConfig } from "../../api/config";
import { embeddedDatabasePath, openDatabase, rowsOf } from "../../api/db/client";
import { demoCoupon } from "../../api/db/demo-data";
import { demoKeys } from "../../api/db/demo-feedback";
import { DEMO_IN_PRODUCTION_WARNING } from "../../api/db/seed";
import { issueChallenge } from "../../api/services/guards/human-check";
import { createScratchPostgresDatabase } from "../support/database";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * Issue 37 item 1 (ADR 053): a production start on an empty database opens an empty store, not the demo. No
 * products, no demo coupon, no demo customers or orders, and the README's published demo key is refused; the
 * demo comes only with SEED_DEMO=true, and then every start warns. The real server process, on the embedded
 * database and (with TEST_DATABASE_URL) on a fresh PostgreSQL database.
 */

const SESSION_SECRET = "production-start-session-secret-long-enough";
const DEMO_KEY = demoKeys[0].code;
const cleanups: (() => Promise<void> | void)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
});

type Store = { env: Record<string, string>; counts: () => Promise<Record<string, number>> };

/** Rows the demo would bring, counted with SQL on the store's database (once its process is stopped). */
const COUNTS = sql`select
  (select count(*)::int from products) as products,
  (select count(*)::int from coupons where upper(code) = ${demoCoupon.code}) as demo_coupons,
  (select count(*)::int from redeem_keys) as redeem_keys,
  (select count(*)::int from users) as users,
  (select count(*)::int from orders) as orders,
  (select count(*)::int from feedback) as feedback`;

async function countRows(location: string) {
  const database = await openDatabase(location);
  try {
    const [row] = await rowsOf<Record<string, number>>(database.db.execute(COUNTS));
    return row;
  } finally {
    await database.close();
  }
}

async function embeddedStore(): Promise<Store> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-production-"));
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: "", DATABASE_MIGRATION_URL: "" },
    counts: () => countRows(embeddedDatabasePath(dataDir)),
  };
}

async function postgresStore(): Promise<Store> {
  const scratch = await createScratchPostgresDatabase(process.env.TEST_DATABASE_URL!, "store_production");
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-production-"));
  cleanups.push(() => scratch.drop());
  cleanups.push(() => rmSync(dataDir, { recursive: true, force: true }));
  return {
    env: { DATA_DIR: dataDir, DATABASE_URL: scratch.url, DATABASE_MIGRATION_URL: "" },
    counts: () => countRows(scratch.url),
  };
}

/** One production start of the real server; `run` talks to it, then it is stopped (SIGTERM). */
async function productionStart(store: Store, variables: Record<string, string>, run: (base: string) => Promise<void>) {
  const server = new ApiServerProcess(
    await freePort(),
    {
      ...store.env,
      NODE_ENV: "production",
      SESSION_SECRET,
      CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
      PUBLIC_URL: "http://store.test",
      SEED_DEMO: "",
      LOG_LEVEL: "info",
      ...variables,
    },
    { keepOutput: true },
  );
  cleanups.push(() => server.kill());
  await server.start(60_000);
  try {
    await run(server.baseUrl);
  } finally {
    await server.stop();
  }
  return server.output;
}

/** POST /v1/order/redeemKey with the demo key and a valid human check, as the /redeem-key form sends it. */
async function redeemDemoKey(base: string) {
  const config = loadConfig({
    NODE_ENV: "production",
    SESSION_SECRET,
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
  } as NodeJS.ProcessEnv);
  const answer = issueChallenge(config, new Date(Date.now() - 5_000)).token!;
  const response = await fetch(`${base}/v1/order/redeemKey`, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ email: "visitor@example.com", key: DEMO_KEY, "g-recaptcha-response": answer }),
  });
  return { status: response.status, body: (await response.json()) as { message: string } };
}

const productsOf = (base: string) =>
  fetch(`${base}/v1/product/read`).then((response) => response.json() as Promise<{ payload: unknown[] }>);

const warnings = (output: string) =>
  output
    .split("\n")
    .filter((line) => line.startsWith("{"))
    .map((line) => JSON.parse(line) as { level: string; message: string })
    .filter((line) => line.level === "warn");

describe.each([
  ["the embedded database", embeddedStore, false],
  ["a PostgreSQL server", postgresStore, !process.env.TEST_DATABASE_URL],
] as const)("a production start on %s", (_name, makeStore, skip) => {
  it.skipIf(skip)(
    "opens an empty store: no demo products, coupon, customers, orders or keys; the demo only with SEED_DEMO=true, warned at every start",
    { timeout: 180_000 },
    async () => {
      const store = await makeStore();

      const empty = await productionStart(store, {}, async (base) => {
        expect((await productsOf(base)).payload).toEqual([]);
        const refused = await redeemDemoKey(base);
        expect(refused.status, refused.body.message).toBe(400);
      });
      expect(warnings(empty).map((line) => line.message)).not.toContain(DEMO_IN_PRODUCTION_WARNING);
      expect(await store.counts()).toEqual({
        products: 0,
        demo_coupons: 0,
        redeem_keys: 0,
        users: 0,
        orders: 0,
        feedback: 0,
      });

      // The operator opts in: the demo appears, its key works, and the start says so.
      const seeded = await productionStart(store, { SEED_DEMO: "true" }, async (base) => {
        expect((await productsOf(base)).payload.length).toBeGreaterThan(0);
        const redeemed = await redeemDemoKey(base);
        expect(redeemed.status, redeemed.body.message).toBe(201);
      });
      expect(warnings(seeded).map((line) => line.message)).toContain(DEMO_IN_PRODUCTION_WARNING);
      expect(await store.counts()).toMatchObject({ demo_coupons: 1 });

      // Every start, not only the one that seeded.
      const again = await productionStart(store, { SEED_DEMO: "true" }, async () => {});
      expect(warnings(again).map((line) => line.message)).toContain(DEMO_IN_PRODUCTION_WARNING);
    },
  );
});
