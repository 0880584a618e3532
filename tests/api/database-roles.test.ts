import { spawn } from "node:child_process";
import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import postgres from "postgres";
import { openDatabase } from "../../api/db/client";
import { grantAppRole } from "../../api/db/roles";
import { auditLog, users } from "../../api/db/schema";
import { recordAudit } from "../../api/services/staff/audit";
import {
  TEST_APP_ROLE,
  TEST_OWNER_ROLE,
  type TestDatabaseHandle,
  createLeastPrivilegeDatabase,
  createTestDatabase,
} from "../support/database";

/*
 * Least privilege on PostgreSQL (issue 25, ADR 036): the API tests connect as the app role that owns
 * nothing, as the store does in production; the audit log is append-only to it by its rights, not only
 * by the trigger an owner could drop; `npm run db:roles` sets a database up. PostgreSQL only (PGlite has
 * no roles).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
const INSUFFICIENT_PRIVILEGE = "42501";

let database: TestDatabaseHandle;
beforeAll(async () => {
  if (adminUrl) database = await createTestDatabase();
});
afterAll(() => database?.close());

/** The SQLSTATE a statement fails with as the app role, or "no error". */
async function failureOf(statement: string): Promise<string> {
  try {
    await database.db.execute(sql.raw(statement));
    return "no error";
  } catch (error) {
    const { code, cause } = error as { code?: string; cause?: { code?: string } };
    return cause?.code ?? code ?? String(error);
  }
}

function runRolesCli(env: Record<string, string>): Promise<{ code: number | null; output: string }> {
  const dataDir = mkdtempSync(path.join(tmpdir(), "store-roles-"));
  return new Promise((resolve) => {
    const child = spawn(process.execPath, ["--import", "tsx", "api/db/roles-cli.ts"], {
      env: {
        ...process.env,
        NODE_ENV: "test",
        DATA_DIR: dataDir,
        SESSION_SECRET: "roles-test-session-secret-".padEnd(40, "x"),
        ...env,
      },
    });
    let output = "";
    child.stdout.on("data", (chunk) => (output += chunk));
    child.stderr.on("data", (chunk) => (output += chunk));
    child.on("exit", (code) => {
      rmSync(dataDir, { recursive: true, force: true });
      resolve({ code, output });
    });
  });
}

describe.skipIf(!adminUrl)("least privilege on PostgreSQL", () => {
  it("the API tests connect as the app role: no superuser, and it owns no table, schema or database", async () => {
    const [role] = (await database.db.execute(sql`
      select current_user as name, rolsuper as superuser, rolcreaterole as "createRole", rolcreatedb as "createDb",
        (select count(*) from pg_class where relowner = pg_roles.oid)::int as tables,
        (select count(*) from pg_namespace where nspowner = pg_roles.oid)::int as schemas,
        (select count(*) from pg_database where datdba = pg_roles.oid)::int as databases
      from pg_roles where rolname = current_user`)) as unknown as Record<string, unknown>[];
    expect(role).toEqual({
      name: TEST_APP_ROLE,
      superuser: false,
      createRole: false,
      createDb: false,
      tables: 0,
      schemas: 0,
      databases: 0,
    });
  });

  it("the app role adds to and reads the audit log, and cannot change, empty or drop it, nor its trigger", async () => {
    const actor = { userId: null, email: "owner@store.example", role: "owner", ip: "203.0.113.5" };
    await recordAudit(database.db, actor, { action: "staff.role", objectType: "user", objectId: "roles-test" });
    const written = await database.db.select().from(auditLog).where(eq(auditLog.objectId, "roles-test"));
    expect(written).toHaveLength(1);

    const refused = {
      update: await failureOf("update audit_log set ip = 'forged'"),
      delete: await failureOf("delete from audit_log"),
      truncate: await failureOf("truncate audit_log"),
      dropTrigger: await failureOf("drop trigger audit_log_no_update_or_delete on audit_log"),
      disableTrigger: await failureOf("alter table audit_log disable trigger user"),
      dropTable: await failureOf("drop table audit_log"),
      dropFunction: await failureOf("drop function audit_log_append_only() cascade"),
    };
    expect(refused).toEqual({
      update: INSUFFICIENT_PRIVILEGE,
      delete: INSUFFICIENT_PRIVILEGE,
      truncate: INSUFFICIENT_PRIVILEGE,
      dropTrigger: INSUFFICIENT_PRIVILEGE,
      disableTrigger: INSUFFICIENT_PRIVILEGE,
      dropTable: INSUFFICIENT_PRIVILEGE,
      dropFunction: INSUFFICIENT_PRIVILEGE,
    });
    // The owner may change the schema; the trigger still refuses even it a rewrite of the log.
    await expect(database.asOwner("update audit_log set ip = 'forged'")).rejects.toThrow(/append-only/);
    expect(await database.db.select().from(auditLog).where(eq(auditLog.objectId, "roles-test"))).toEqual(written);
  });

  it("the app role cannot create tables, and gets rows rights on the tables later migrations create", async () => {
    expect(await failureOf("create table app_made (id text)")).toBe(INSUFFICIENT_PRIVILEGE);
    await database.asOwner("create table later_migration (id text primary key)");
    await database.db.execute(sql`insert into later_migration values ('a')`);
    await database.db.execute(sql`update later_migration set id = 'b'`);
    expect(await database.db.execute(sql`delete from later_migration returning id`)).toHaveLength(1);
  });

  it("npm run db:roles migrates as the owner and grants the app role, which then starts alone; it cannot migrate", async () => {
    const scratch = await createLeastPrivilegeDatabase(adminUrl!, "store_roles", { empty: true });
    try {
      await expect(openDatabase(scratch.url)).rejects.toThrow(/set DATABASE_MIGRATION_URL/);
      const ran = await runRolesCli({ DATABASE_URL: scratch.url, DATABASE_MIGRATION_URL: scratch.migrationUrl });
      expect(ran, ran.output).toMatchObject({ code: 0 });
      const sameRole = await runRolesCli({
        DATABASE_URL: scratch.migrationUrl,
        DATABASE_MIGRATION_URL: scratch.migrationUrl,
      });
      expect(sameRole.code).toBe(1);
      expect(sameRole.output).toContain("DATABASE_URL must name a role of its own");

      // Migrated and granted, the app role starts alone: it never needs the owner's connection.
      const app = await openDatabase(scratch.url);
      try {
        await app.db.insert(users).values({ username: "roles", email: "roles@example.com", passwordHash: "x" });
        expect(await app.db.select({ id: users.id }).from(users)).toHaveLength(1);
        const [rights] = (await app.db.execute(sql`
          select has_table_privilege('audit_log', 'INSERT') as insert, has_table_privilege('audit_log', 'SELECT') as select,
            has_table_privilege('audit_log', 'UPDATE') as update, has_table_privilege('audit_log', 'DELETE') as delete,
            has_table_privilege('audit_log', 'TRUNCATE') as truncate`)) as unknown as Record<string, boolean>[];
        expect(rights).toEqual({ insert: true, select: true, update: false, delete: false, truncate: false });
      } finally {
        await app.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 60_000);

  it("with DATABASE_MIGRATION_URL the store applies due migrations as the owner at start, and needs db:roles' grants", async () => {
    const scratch = await createLeastPrivilegeDatabase(adminUrl!, "store_roles", { empty: true });
    try {
      // Before `npm run db:roles` the app role has no rights on the tables the owner just made: the start stops
      // with the one line saying so (issue 37 item 6), rather than at its first query with "permission denied".
      await expect(openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl })).rejects.toThrow(
        /has no rights on the store's tables .*run `npm run db:roles` once/,
      );
      const owner = postgres(scratch.migrationUrl, { max: 1, onnotice: () => {} });
      try {
        await grantAppRole(owner, TEST_APP_ROLE);
      } finally {
        await owner.end();
      }
      const app = await openDatabase(scratch.url, { migrationUrl: scratch.migrationUrl });
      try {
        const owners = (await app.db.execute(sql`
          select distinct pg_get_userbyid(relowner) as owner from pg_class
          where relnamespace = 'public'::regnamespace and relkind = 'r'`)) as unknown as { owner: string }[];
        expect(owners).toEqual([{ owner: TEST_OWNER_ROLE }]);
      } finally {
        await app.close();
      }
    } finally {
      await scratch.drop();
    }
  }, 60_000);
});
