import { type ChildProcess, spawn } from "node:child_process";
import { cpSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { PGlite } from "@electric-sql/pglite";
import { eq, isNull, sql } from "drizzle-orm";
import { drizzle as drizzlePglite } from "drizzle-orm/pglite";
import { migrate as migratePglite } from "drizzle-orm/pglite/migrator";
import { drizzle as drizzlePostgres } from "drizzle-orm/postgres-js";
import { migrate as migratePostgres } from "drizzle-orm/postgres-js/migrator";
import postgres from "postgres";
import { afterAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { CredentialKeyError, installCredentialKeys, vaultOfKeys } from "../../api/credential-vault";
import { type Database, migrationsFolder, openDatabase } from "../../api/db/client";
import { newId } from "../../api/db/ids";
import { grantAppRole } from "../../api/db/roles";
import * as schema from "../../api/db/schema";
import { orderProducts, paymentGateways, stockCredentials } from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import {
  assertCredentialKeysPresent,
  encryptPlainStock,
  rotateCredentialBatch,
  untilDone,
} from "../../api/services/stock/credential-keys";
import { revealStockRow } from "../../api/services/stock/secrets";
import { TEST_APP_ROLE, createLeastPrivilegeDatabase } from "../support/database";
import { createCustomer, createListing } from "../support/shop";

/*
 * Issue 39 (ADR 056): a store upgraded from plain credentials encrypts them in batches while it sells, and a key
 * rotation re-encrypts them while it sells, with no value lost or changed and no credential sold twice. Checkouts
 * run concurrently on the PostgreSQL server (TEST_DATABASE_URL); on PGlite, which runs one statement at a time,
 * the same steps interleave.
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const PLAIN_ROWS = 3000;
const BUYERS = 16;
const key = (fill: number) => Buffer.alloc(32, fill);
const KEY_A = key(0xa1);
const KEY_B = key(0xb2);
const KEY_C = key(0xc3);

const scratchDirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];
afterAll(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup();
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

/** The migrations of the release before issue 39: every one but the newest. */
function migrationsBeforeEncryption(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "store-old-migrations-"));
  scratchDirs.push(dir);
  cpSync(migrationsFolder, dir, { recursive: true });
  const journalFile = path.join(dir, "meta", "_journal.json");
  const journal = JSON.parse(readFileSync(journalFile, "utf8")) as { entries: { tag: string }[] };
  const newest = journal.entries.pop()!;
  expect(newest.tag).toBe("0015_credentials_at_rest");
  writeFileSync(journalFile, JSON.stringify(journal));
  rmSync(path.join(dir, `${newest.tag}.sql`));
  return dir;
}

/**
 * A database as the previous release left it, holding PLAIN_ROWS plain credentials of one option, then upgraded
 * (this release's migration applied) as the store does at start.
 */
async function upgradedDatabase() {
  const before = migrationsBeforeEncryption();
  const fill = async (db: Database) => {
    const listing = await createListing(db, { stock: 0, priceCents: 100 });
    const rows = Array.from({ length: PLAIN_ROWS }, (_, index) => ({
      optionId: listing.optionId,
      username: `Plain.User.${index}@Old.Example`,
      password: `old-pass-${index}-${(index * 7919) % 1000}:x`,
    }));
    // In SQL: the schema of this release names columns the previous one did not have.
    for (let start = 0; start < rows.length; start += 500) {
      const values = rows
        .slice(start, start + 500)
        .map((row) => sql`(${newId()}, ${row.optionId}, ${row.username}, ${row.password})`);
      await db.execute(
        sql`insert into stock_credentials (id, option_id, username, password) values ${sql.join(values, sql`, `)}`,
      );
    }
    return listing;
  };
  if (!adminUrl) {
    const client = new PGlite();
    const db = drizzlePglite(client, { schema }) as unknown as Database;
    await migratePglite(db as never, { migrationsFolder: before });
    const listing = await fill(db);
    await migratePglite(db as never, { migrationsFolder });
    cleanups.push(() => client.close());
    return { db, listing, postgresUrls: undefined };
  }
  const scratch = await createLeastPrivilegeDatabase(adminUrl, "store_upgrade", { empty: true });
  cleanups.push(scratch.drop);
  const owner = postgres(scratch.migrationUrl, { max: 1, onnotice: () => {} });
  await migratePostgres(drizzlePostgres(owner), { migrationsFolder: before });
  await grantAppRole(owner, TEST_APP_ROLE);
  const listing = await fill(drizzlePostgres(owner, { schema }) as unknown as Database);
  await owner.end();
  // As the store starts: its app role, the owner migrating what is due.
  const handle = await openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl });
  cleanups.push(() => handle.close());
  return { db: handle.db, listing, postgresUrls: scratch };
}

function storeOn(db: Database, keys: Buffer[]) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "/tmp/store-test-data",
    SESSION_SECRET: "credential-keys-test-".padEnd(48, "x"),
    CREDENTIALS_KEY: keys.map((material) => material.toString("base64")).join(","),
    RATE_LIMIT_SCALE: "100",
    CATALOGUE_CACHE_MS: "0",
  } as NodeJS.ProcessEnv);
  const api = createApi({ db, config, logger: createLogger("silent") });
  let address = 0;
  return async (method: string, url: string, body: unknown, token: string) => {
    const response = await api.request(
      url,
      {
        method,
        headers: { "content-type": "application/json", authorization: `Bearer ${token}` },
        body: JSON.stringify(body),
      },
      { clientIp: `198.18.3.${++address % 250}` },
    );
    return { status: response.status, body: (await response.json()) as { message: string; payload?: any } };
  };
}

/** BUYERS customers each buying 2 of the option from their balance, all at once: the credentials each was shown. */
async function checkoutsAtOnce(db: Database, call: ReturnType<typeof storeOn>, optionId: string) {
  const buyers = await Promise.all(Array.from({ length: BUYERS }, () => createCustomer(db, { balanceCents: 10_000 })));
  for (const buyer of buyers) {
    const added = await call("POST", "/v1/cart/add", { optionId, quantity: 2, duration: 30 }, buyer.token);
    expect(added.status, added.body.message).toBe(200);
  }
  const orders = await Promise.all(
    buyers.map(async (buyer) => {
      const created = await call("POST", "/v1/order/create", { paymentMethod: "balance" }, buyer.token);
      expect(created.status, created.body.message).toBe(201);
      const read = await call("POST", "/v1/order/read", { page: 1 }, buyer.token);
      return read.body.payload.records[0].products[0].creds as string[];
    }),
  );
  return orders.flat();
}

/** Every row's credential as `username:password`, by row id. */
async function credentialsById(db: Database) {
  const rows = await db.select().from(stockCredentials);
  return new Map(
    rows.map((row) => {
      const credential = revealStockRow(row);
      return [row.id, `${credential.username}:${credential.password}`] as const;
    }),
  );
}

/** Every sold credential is one the stock held, none was sold twice, and each buyer got what their rows hold. */
async function expectSoldOnce(db: Database, sold: string[], before: Map<string, string>) {
  expect(sold.length % (BUYERS * 2)).toBe(0);
  expect(new Set(sold).size).toBe(sold.length);
  const values = new Set(before.values());
  for (const credential of sold) expect(values.has(credential)).toBe(true);
  const delivered = await db
    .select({ id: stockCredentials.id })
    .from(stockCredentials)
    .innerJoin(orderProducts, eq(orderProducts.id, stockCredentials.orderProductId))
    .where(eq(stockCredentials.status, "delivered"));
  const now = await credentialsById(db);
  expect(new Set(delivered.map((row) => now.get(row.id)))).toEqual(new Set(sold));
}

describe("the upgrade and a rotation, while customers buy", () => {
  it("encrypts every plain row in batches, then re-encrypts each under a new key, no value lost or changed", async () => {
    const { db, listing, postgresUrls } = await upgradedDatabase();
    const plainBefore = await db.select().from(stockCredentials);
    expect(plainBefore).toHaveLength(PLAIN_ROWS);
    expect(plainBefore.every((row) => row.secret === null && row.username !== null)).toBe(true);
    const original = new Map(plainBefore.map((row) => [row.id, `${row.username}:${row.password}`]));
    await db.insert(paymentGateways).values({ name: "balance", label: "Balance", position: 0 });

    // The upgrade: two instances encrypting at once while sixteen checkouts run.
    const call = storeOn(db, [KEY_A]);
    const [sold] = await Promise.all([
      checkoutsAtOnce(db, call, listing.optionId),
      untilDone(() => encryptPlainStock(db)),
      untilDone(() => encryptPlainStock(db)),
    ]);
    expect(await db.select().from(stockCredentials).where(isNull(stockCredentials.secret))).toEqual([]);
    const sealed = await db.select().from(stockCredentials);
    expect(sealed.every((row) => row.username === null && row.password === null)).toBe(true);
    expect(new Set(sealed.map((row) => row.keyId))).toEqual(new Set([vaultOfKeys([KEY_A]).current.id]));
    expect(await credentialsById(db)).toEqual(original);
    await expectSoldOnce(db, sold, original);
    // A duplicate of an upgraded line is still refused, in another letter case.
    const owner = await createCustomer(db, { role: "owner" });
    const again = await call(
      "POST",
      `/v1/admin/stock/${listing.optionId}/import`,
      { text: "PLAIN.USER.7@old.example:old-pass-7-433:x\nplain.user.7@old.example:OLD-PASS-7-433:x", label: "" },
      owner.token,
    );
    expect(again.body.payload).toMatchObject({ added: 1, duplicate: { count: 1, lines: [1] } });
    const withNew = await credentialsById(db);

    // A rotation to B while A is still accepted, again during checkouts.
    const rotating = storeOn(db, [KEY_B, KEY_A]);
    const [soldDuringRotation] = await Promise.all([
      checkoutsAtOnce(db, rotating, listing.optionId),
      untilDone(() => rotateCredentialBatch(db)),
      untilDone(() => rotateCredentialBatch(db)),
    ]);
    const idB = vaultOfKeys([KEY_B]).current.id;
    expect(new Set((await db.select().from(stockCredentials)).map((row) => row.keyId))).toEqual(new Set([idB]));
    // A retired: B alone opens every value, unchanged.
    installCredentialKeys([KEY_B]);
    expect(await credentialsById(db)).toEqual(withNew);
    await expectSoldOnce(db, [...sold, ...soldDuringRotation], withNew);
    // A store given only the old key refuses to start, naming the key's id, never a key.
    const refusal = await assertCredentialKeysPresent(db, vaultOfKeys([KEY_A])).catch((error: unknown) => error);
    expect(refusal).toBeInstanceOf(CredentialKeyError);
    expect((refusal as Error).message).toContain(idB);
    expect((refusal as Error).message).not.toContain(KEY_B.toString("base64"));

    if (!postgresUrls) return;
    // `npm run credentials:rotate` to C beside the running store: killed after its first batch, then run again.
    const env: NodeJS.ProcessEnv = {
      ...process.env,
      NODE_ENV: "production",
      SESSION_SECRET: "s".repeat(40),
      DATA_DIR: mkdtempSync(path.join(tmpdir(), "store-rotate-")),
      DATABASE_URL: postgresUrls.url,
      DATABASE_MIGRATION_URL: postgresUrls.migrationUrl,
      CREDENTIALS_KEY: `${KEY_C.toString("base64")},${KEY_B.toString("base64")}`,
    };
    scratchDirs.push(env.DATA_DIR!);
    const cli = ["--import", "tsx", "api/credentials-rotate-cli.ts"];
    const first: ChildProcess = spawn(process.execPath, cli, { env, stdio: ["ignore", "pipe", "inherit"] });
    await new Promise<void>((resolve) => {
      first.stdout!.on("data", (chunk: Buffer) => {
        if (chunk.toString().includes("re-encrypted:")) first.kill("SIGKILL");
      });
      first.on("exit", () => resolve());
    });
    const idC = vaultOfKeys([KEY_C]).current.id;
    const keysAfterKill = new Set((await db.select().from(stockCredentials)).map((row) => row.keyId));
    expect(keysAfterKill).toEqual(new Set([idB, idC]));
    const storeDuringCli = storeOn(db, [KEY_C, KEY_B]);
    const [soldDuringCli, resumed] = await Promise.all([
      checkoutsAtOnce(db, storeDuringCli, listing.optionId),
      new Promise<{ status: number | null; output: string }>((resolve) => {
        const child = spawn(process.execPath, cli, { env, stdio: ["ignore", "pipe", "pipe"] });
        let output = "";
        child.stdout.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.stderr.on("data", (chunk: Buffer) => (output += chunk.toString()));
        child.on("exit", (status) => resolve({ status, output }));
      }),
    ]);
    expect(resumed.status, resumed.output).toBe(0);
    expect(resumed.output).toContain(`are under key ${idC}. Retire the old key`);
    expect(resumed.output).not.toContain(KEY_C.toString("base64"));
    await expectSoldOnce(db, [...sold, ...soldDuringRotation, ...soldDuringCli], withNew);
    installCredentialKeys([KEY_C]);
    const finalValues = await credentialsById(db);
    for (const [id, value] of withNew) expect(finalValues.get(id)).toBe(value);
  }, 300_000);
});
