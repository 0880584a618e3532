import { spawnSync } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, rmSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { sql } from "drizzle-orm";
import { afterAll, describe, expect, it } from "vitest";
import { createApi } from "../../api/app";
import { loadConfig } from "../../api/config";
import { type DatabaseHandle, embeddedDatabasePath, openDatabase } from "../../api/db/client";
import { createLogger } from "../../api/logger";
import { recordAudit } from "../../api/services/staff/audit";
import { createLeastPrivilegeDatabase } from "../support/database";
import { createCustomer, createListing } from "../support/shop";

/*
 * Issue 30: a backup is proven by restoring it. A store with a customer who bought and was delivered
 * credentials, a ticket and audit entries is backed up with `npm run db:backup`, restored with
 * `npm run db:restore` into a fresh database, and the customer signs in there and sees the same orders and
 * credentials; every table the store cares about has the same rows. Once on the embedded database (always),
 * once on the PostgreSQL server (with TEST_DATABASE_URL), where the store connects as a role that owns
 * nothing and backup and restore run as the schema's owner (ADR 036, ADR 045).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const PASSWORD = "backup test passphrase";
const scratchDirs: string[] = [];
const cleanups: (() => Promise<void>)[] = [];

afterAll(async () => {
  for (const cleanup of cleanups) await cleanup();
  for (const dir of scratchDirs) rmSync(dir, { recursive: true, force: true });
});

function scratchDir(): string {
  const dir = mkdtempSync(path.join(tmpdir(), "store-backup-"));
  scratchDirs.push(dir);
  return dir;
}

/**
 * `npm run db:backup` / `db:restore` as an operator runs them, with `env` for the database settings. The backup
 * runs under umask 000, the most open an operator's shell could have: its file must still be the owner's alone.
 */
function runCli(script: "db-backup" | "db-restore", args: string[], env: Record<string, string>) {
  const command = [process.execPath, "--import", "tsx", `scripts/${script}.ts`, ...args];
  const umask = script === "db-backup" ? "000" : "022";
  const result = spawnSync("sh", ["-c", `umask ${umask} && exec "$@"`, "sh", ...command], {
    env: { ...process.env, DATABASE_URL: "", DATABASE_MIGRATION_URL: "", ...env },
    encoding: "utf8",
    timeout: 60_000,
  });
  return { status: result.status, output: `${result.stdout}${result.stderr}` };
}

function apiOn(db: DatabaseHandle["db"]) {
  const config = loadConfig({
    NODE_ENV: "test",
    DATA_DIR: "/tmp/store-test-data",
    SESSION_SECRET: "backup-test-secret-".padEnd(48, "x"),
    CATALOGUE_CACHE_MS: "0",
  } as NodeJS.ProcessEnv);
  const api = createApi({ db, config, logger: createLogger("silent") });
  let address = 0;
  return async (method: string, url: string, body?: unknown, token?: string) => {
    const headers: Record<string, string> = {};
    if (body !== undefined) headers["content-type"] = "application/json";
    if (token) headers.authorization = `Bearer ${token}`;
    const response = await api.request(
      url,
      { method, headers, body: body === undefined ? undefined : JSON.stringify(body) },
      { clientIp: `198.18.0.${++address}` },
    );
    return { status: response.status, body: (await response.json()) as { message: string; payload?: any } };
  };
}

/** Row counts of what a backup must bring back (stock by status, so a delivery is seen as one). */
async function rowCounts(db: DatabaseHandle["db"]) {
  const counted = await db.execute<Record<string, number>>(sql`select
    (select count(*)::int from users) as users,
    (select count(*)::int from orders) as orders,
    (select count(*)::int from order_products) as order_lines,
    (select count(*)::int from stock_credentials where status = 'available') as stock_available,
    (select count(*)::int from stock_credentials where status = 'delivered') as stock_delivered,
    (select count(*)::int from tickets) as tickets,
    (select count(*)::int from ticket_messages) as ticket_messages,
    (select count(*)::int from audit_log) as audit_entries,
    (select count(*)::int from sessions) as sessions`);
  return (Array.isArray(counted) ? counted : (counted as unknown as { rows: Record<string, number>[] }).rows)[0];
}

/** A customer who bought and was delivered credentials, opened a ticket, and staff changes in the audit log. */
async function populate(db: DatabaseHandle["db"]) {
  const call = apiOn(db);
  const registered = await call("POST", "/v1/user/register", {
    username: "restored",
    email: "restored@example.com",
    password: PASSWORD,
    password2: PASSWORD,
  });
  expect(registered.status, registered.body.message).toBe(201);
  const token = registered.body.payload.token as string;
  const { optionId } = await createListing(db, { stock: 5, title: "Backed up product" });
  expect((await call("POST", "/v1/cart/add", { optionId, duration: 30, quantity: 2 }, token)).status).toBe(200);
  const created = await call("POST", "/v1/order/create", { paymentMethod: "sandbox" }, token);
  expect(created.status, created.body.message).toBe(201);
  const paymentId = decodeURIComponent(String(created.body.payload.paymentUrl).split("/pay/sandbox/")[1]);
  const paid = await call("POST", `/v1/sandbox/payments/${encodeURIComponent(paymentId)}/pay`);
  expect(paid.status, paid.body.message).toBe(200);
  const ticket = await call(
    "POST",
    "/v1/ticket/create",
    { orderId: created.body.payload.orderId, subject: "Backup ticket", message: "Still works after a restore?" },
    token,
  );
  expect(ticket.status, ticket.body.message).toBe(201);
  const owner = await createCustomer(db, { role: "owner" });
  const actor = { userId: owner.id, email: owner.email, role: "owner", ip: "198.18.1.1" };
  await recordAudit(db, actor, {
    action: "product.update",
    objectType: "product",
    objectId: optionId,
    after: { title: "x" },
  });
  await recordAudit(db, actor, {
    action: "stock.import",
    objectType: "option",
    objectId: optionId,
    after: { added: 5 },
  });

  const orders = await call("POST", "/v1/order/read", { page: 1 }, token);
  expect(orders.status).toBe(200);
  expect(orders.body.payload.records).toHaveLength(1);
  // The credentials delivered to the customer, as the order shows them.
  expect(orders.body.payload.records[0].products[0].creds).toEqual([
    expect.stringMatching(/^user\d-/),
    expect.stringMatching(/^user\d-/),
  ]);
  return { orders: orders.body.payload, counts: await rowCounts(db) };
}

/** On the restored database: the customer signs in with their password and sees what they saw before. */
async function expectRestored(db: DatabaseHandle["db"], before: Awaited<ReturnType<typeof populate>>) {
  const call = apiOn(db);
  const login = await call("POST", "/v1/user/login", { username: "restored", password: PASSWORD });
  expect(login.status, login.body.message).toBe(200);
  const orders = await call("POST", "/v1/order/read", { page: 1 }, login.body.payload.token);
  expect(orders.status).toBe(200);
  expect(orders.body.payload).toEqual(before.orders);
  // The new sign-in is one more session; everything else is as it was.
  expect(await rowCounts(db)).toEqual({ ...before.counts, sessions: before.counts.sessions + 1 });
}

describe("backup and restore of the embedded database", () => {
  it("restores into an empty data folder, refuses while the store runs and over a database without --force", async () => {
    const source = scratchDir();
    const target = scratchDir();
    const file = path.join(scratchDir(), "store.backup");
    // Opened as the store opens it: this process holds DATA_DIR/store.pid.
    const database = await openDatabase(embeddedDatabasePath(source));
    let before: Awaited<ReturnType<typeof populate>>;
    try {
      before = await populate(database.db);
      const whileRunning = runCli("db-backup", ["--out", file], { DATA_DIR: source });
      expect(whileRunning.status).toBe(1);
      expect(whileRunning.output).toContain(`(process ${process.pid}); stop it first`);
      expect(existsSync(file)).toBe(false);
    } finally {
      await database.close();
    }

    const backup = runCli("db-backup", ["--out", file], { DATA_DIR: source });
    expect(backup.status, backup.output).toBe(0);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    const restore = runCli("db-restore", [file], { DATA_DIR: target });
    expect(restore.status, restore.output).toBe(0);

    const refused = runCli("db-restore", [file], { DATA_DIR: target });
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("already holds a database");
    const forced = runCli("db-restore", [file, "--force"], { DATA_DIR: target });
    expect(forced.status, forced.output).toBe(0);
    // The database --force replaced is kept beside, not deleted.
    expect(readdirSync(target).filter((name) => name.startsWith("pglite.replaced-"))).toHaveLength(1);

    const restored = await openDatabase(embeddedDatabasePath(target));
    try {
      await expectRestored(restored.db, before);
    } finally {
      await restored.close();
    }
  }, 120_000);
});

describe.skipIf(!adminUrl)("backup and restore of a PostgreSQL database", () => {
  it("restores into an empty database as its owner, grants the app role, refuses a database with tables", async () => {
    const source = await createLeastPrivilegeDatabase(adminUrl!, "store_backup");
    cleanups.push(source.drop);
    const target = await createLeastPrivilegeDatabase(adminUrl!, "store_restore", { empty: true });
    cleanups.push(target.drop);
    const file = path.join(scratchDir(), "store.backup");

    // The store keeps running on the source while the backup is taken.
    const database = await openDatabase(source.url, { migrationUrl: source.migrationUrl });
    let before: Awaited<ReturnType<typeof populate>>;
    try {
      before = await populate(database.db);
      const backup = runCli("db-backup", ["--out", file], {
        DATABASE_URL: source.url,
        DATABASE_MIGRATION_URL: source.migrationUrl,
      });
      expect(backup.status, backup.output).toBe(0);
      // Issue 37 item 4: pg_dump made its file 0644; a backup holds every customer's data.
      expect(statSync(file).mode & 0o777).toBe(0o600);
      // The app role alone may not read everything a dump needs, and the command says what to do.
      const asApp = runCli("db-backup", ["--out", `${file}.app`], { DATABASE_URL: source.url });
      expect(asApp.status).toBe(1);
      expect(asApp.output).toContain("set DATABASE_MIGRATION_URL");
    } finally {
      await database.close();
    }

    const targetEnv = { DATABASE_URL: target.url, DATABASE_MIGRATION_URL: target.migrationUrl };
    const restore = runCli("db-restore", [file], targetEnv);
    expect(restore.status, restore.output).toBe(0);
    const refused = runCli("db-restore", [file], targetEnv);
    expect(refused.status).toBe(1);
    expect(refused.output).toContain("already holds");
    const missing = runCli("db-restore", [path.join(scratchDir(), "missing.backup")], targetEnv);
    expect(missing.status).toBe(1);
    expect(missing.output).toContain("does not exist");

    // As the store connects: the app role, which owns nothing and was granted its rights by the restore.
    const restored = await openDatabase(target.url, { migrationUrl: target.migrationUrl });
    try {
      await expectRestored(restored.db, before);
      // The audit log came back append-only: the app role may not rewrite it.
      await expect(restored.db.execute(sql`delete from audit_log`)).rejects.toThrow();
    } finally {
      await restored.close();
    }
  }, 120_000);
});
