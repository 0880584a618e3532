import { spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { gunzipSync } from "node:zlib";
import { afterAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { type Database, type DatabaseHandle, embeddedDatabasePath, openDatabase } from "../../api/db/client";
import { stockCredentials } from "../../api/db/schema";
import { seedWhenWanted } from "../../api/db/seed";
import { createLogger } from "../../api/logger";
import { issueChallenge } from "../../api/services/guards/human-check";
import { completeReplacement } from "../../api/services/support/admin-requests";
import { revealStockRow } from "../../api/services/stock/secrets";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";
import { createLeastPrivilegeDatabase } from "../support/database";
import { createCustomer, createListing } from "../support/shop";

/*
 * Issue 39 (ADR 056): the goods are encrypted at rest. After a demo start, a stock import, a sale, a manual delivery
 * and a replacement, a dump of the database (the `npm run db:backup` file of the embedded database; pg_dump of a
 * PostgreSQL server with TEST_DATABASE_URL) holds no username or password of any credential, nor the key, while
 * the store still shows every one of them.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const scratchDirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "store-at-rest-"));
  scratchDirs.push(dir);
  return dir;
}

const configFor = (dataDir: string) =>
  loadConfig({
    NODE_ENV: "test",
    DATA_DIR: dataDir,
    SESSION_SECRET: "at-rest-test-secret-".padEnd(48, "x"),
    CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
    CATALOGUE_CACHE_MS: "0",
    RATE_LIMIT_SCALE: "100",
  } as NodeJS.ProcessEnv);

function storeOn(db: Database, dataDir: string) {
  const config = configFor(dataDir);
  const logger = createLogger("silent");
  const api = createApi({ db, config, logger });
  let address = 0;
  const call = async (method: string, url: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await api.request(
      url,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      { clientIp: `198.18.2.${++address % 250}` },
    );
    return { status: response.status, body: (await response.json()) as { message: string; payload?: any } };
  };
  return { call, deps: { db, config, logger }, config };
}

/** The store's life in short: everything that writes a credential. Answers what the customers were shown. */
async function sellEverySort(db: Database, dataDir: string) {
  const { call, deps, config } = storeOn(db, dataDir);
  await seedWhenWanted(db, true, createLogger("silent"));
  const owner = await createCustomer(db, { role: "owner" });
  const customer = await createCustomer(db, { balanceCents: 100_000 });
  const shown: string[] = [];

  // A stock import.
  const auto = await createListing(db, { stock: 0, priceCents: 500 });
  const imported = await call(
    "POST",
    `/v1/admin/stock/${auto.optionId}/import`,
    {
      text: "Imported.Alice@mail.example:Imported-Pass-0001\nimported.bob@mail.example:Imported-Pass-0002\n",
      label: "",
    },
    owner.token,
  );
  expect(imported.status, imported.body.message).toBe(200);
  expect(imported.body.payload.added).toBe(2);

  // A sale, delivered at once from the balance.
  const order = async (optionId: string, quantity: number) => {
    const added = await call("POST", "/v1/cart/add", { optionId, quantity, duration: 30 }, customer.token);
    expect(added.status, added.body.message).toBe(200);
    const created = await call("POST", "/v1/order/create", { paymentMethod: "balance" }, customer.token);
    expect(created.status, created.body.message).toBe(201);
    return created.body.payload.orderId as string;
  };
  const sold = await order(auto.optionId, 2);
  const soldView = await call("GET", `/v1/order/read/${sold}`);
  expect(soldView.body.payload.products[0].creds.sort()).toEqual([
    "Imported.Alice@mail.example:Imported-Pass-0001",
    "imported.bob@mail.example:Imported-Pass-0002",
  ]);
  shown.push(...soldView.body.payload.products[0].creds);

  // A manual delivery, pasted by staff.
  const manual = await createListing(db, { fulfilMode: "manual", priceCents: 500 });
  const manualOrder = await order(manual.optionId, 1);
  const page = await call("GET", `/v1/admin/orders/${manualOrder}`, undefined, owner.token);
  const delivered = await call(
    "POST",
    `/v1/admin/orders/${manualOrder}/deliver`,
    { lineId: page.body.payload.lines[0]._id, credentials: "manual.carol@mail.example:Manual-Pass-0003" },
    owner.token,
  );
  expect(delivered.status, delivered.body.message).toBe(200);
  const manualView = await call("GET", `/v1/order/read/${manualOrder}`);
  expect(manualView.body.payload.products[0].creds).toEqual(["manual.carol@mail.example:Manual-Pass-0003"]);
  shown.push(...manualView.body.payload.products[0].creds);

  // A replacement: the option is sold out, so it waits, and staff complete it with a pasted credential.
  const requested = await call(
    "POST",
    "/v1/request/createReplacement",
    {
      orderId: sold,
      productId: auto.productId,
      productOptionId: auto.optionId,
      index: 0,
      message: "It stopped working this morning.",
      "g-recaptcha-response": issueChallenge(config, new Date(Date.now() - 5_000)).token!,
    },
    customer.token,
  );
  expect(requested.status, requested.body.message).toBe(201);
  const replaced = await completeReplacement(deps, {
    requestId: requested.body.payload._id,
    staffUserId: null,
    credential: "replacement.dave@mail.example:Replacement-Pass-0004",
  });
  expect(replaced.creds).toEqual(["replacement.dave@mail.example:Replacement-Pass-0004"]);
  shown.push(...replaced.creds);

  // Staff's audited view and the stock export still read them.
  const staffView = await call("POST", `/v1/admin/orders/${sold}/credentials`, {}, owner.token);
  expect(staffView.status).toBe(200);
  expect(JSON.stringify(staffView.body.payload)).toContain("Imported-Pass-0001");
  return shown;
}

/** Every credential the database holds, decrypted: what a dump must not show. */
async function everyCredential(db: Database) {
  const rows = await db.select().from(stockCredentials);
  expect(rows.every((row) => row.username === null && row.password === null && row.secret !== null)).toBe(true);
  return rows.map(revealStockRow);
}

/**
 * No username (every one here, demo and test, is at @mail.example: the domain appears nowhere else), no password
 * (the four this test made, and every tenth of the demo's: a full scan of a 40 MB dump per password is minutes), no key.
 */
function expectNoneIn(dump: Buffer, credentials: { username: string; password: string }[]) {
  expect(credentials.every((credential) => credential.username.endsWith("@mail.example"))).toBe(true);
  expect(dump.indexOf("@mail.example")).toBe(-1);
  expect(dump.indexOf("@MAIL.EXAMPLE")).toBe(-1);
  const passwords = credentials
    .map((credential) => credential.password)
    .filter((password, index) => password.includes("-Pass-") || index % 10 === 0);
  expect(passwords.length).toBeGreaterThan(20);
  expect(passwords.filter((password) => dump.indexOf(password) !== -1)).toEqual([]);
  expect(dump.indexOf(TEST_CREDENTIALS_KEY)).toBe(-1);
  expect(dump.indexOf(Buffer.from(TEST_CREDENTIALS_KEY, "base64"))).toBe(-1);
}

describe("a backup of the embedded database", () => {
  it("holds no credential after a demo start, an import, a sale, a manual delivery and a replacement", async () => {
    const dataDir = scratchDir();
    const database: DatabaseHandle = await openDatabase(embeddedDatabasePath(dataDir));
    let secrets: Awaited<ReturnType<typeof everyCredential>>;
    let shown: string[];
    try {
      shown = await sellEverySort(database.db, dataDir);
      secrets = await everyCredential(database.db);
    } finally {
      await database.close();
    }
    for (const credential of shown) {
      expect(secrets.map(({ username, password }) => `${username}:${password}`)).toContain(credential);
    }
    const file = path.join(scratchDir(), "store.backup");
    const backup = spawnSync(process.execPath, ["--import", "tsx", "scripts/db-backup.ts", "--out", file], {
      env: { ...process.env, DATABASE_URL: "", DATA_DIR: dataDir, CREDENTIALS_KEY: TEST_CREDENTIALS_KEY },
      encoding: "utf8",
      timeout: 60_000,
    });
    expect(backup.status, `${backup.stdout}${backup.stderr}`).toBe(0);
    expectNoneIn(gunzipSync(readFileSync(file)), secrets);
  }, 120_000);
});

describe.skipIf(!adminUrl)("pg_dump of a PostgreSQL database", () => {
  it("holds no credential after a demo start, an import, a sale, a manual delivery and a replacement", async () => {
    const scratch = await createLeastPrivilegeDatabase(adminUrl!, "store_at_rest");
    cleanups.push(scratch.drop);
    const database = await openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl });
    let secrets: Awaited<ReturnType<typeof everyCredential>>;
    try {
      await sellEverySort(database.db, scratchDir());
      secrets = await everyCredential(database.db);
    } finally {
      await database.close();
    }
    const dump = spawnSync("pg_dump", ["--no-owner", `--dbname=${scratch.migrationUrl}`], { maxBuffer: 256 << 20 });
    expect(dump.status, dump.stderr?.toString()).toBe(0);
    expect(dump.stdout.toString()).toContain("COPY public.stock_credentials");
    expectNoneIn(dump.stdout, secrets);
  }, 120_000);
});
