import { mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import postgres from "postgres";
import { readMigrationFiles } from "drizzle-orm/migrator";
import { afterAll, describe, expect, it } from "vitest";
import { migrationsFolder } from "../../api/db/client";
import { demoProducts } from "../../api/db/demo-data";
import { DEMO_OWNER_EMAIL } from "../../api/db/demo-owner";
import { createScratchPostgresDatabase } from "../support/database";
import { ApiServerProcess, freePort } from "../support/server-process";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

/*
 * Issue 30: two instances started at the same instant on a fresh PostgreSQL database both come up. The
 * migrations run once under an advisory lock (api/db/client.ts), the demo seed once under another
 * (api/db/seed.ts), and neither log has a warning or an error. Issue 37 item 5: two development stores, which
 * also make the demo owner, do so under the seed's lock: one makes it, the other finds it (it used to crash on
 * "This username is already taken"). PostgreSQL only: a second process cannot open an embedded PGlite (ADR 038).
 */

const adminUrl = process.env.TEST_DATABASE_URL;
let scratch: Awaited<ReturnType<typeof createScratchPostgresDatabase>> | undefined;
const instances: ApiServerProcess[] = [];
const dataDirs: string[] = [];

afterAll(async () => {
  await Promise.all(instances.map((instance) => instance.kill()));
  await scratch?.drop();
  for (const dir of dataDirs) rmSync(dir, { recursive: true, force: true });
});

describe.skipIf(!adminUrl)("two instances starting together on a fresh database", () => {
  it("both come up, the migrations, the demo seed and the demo owner happen once, and neither log has an error", async () => {
    scratch = await createScratchPostgresDatabase(adminUrl!, "store_start");
    for (let index = 0; index < 2; index++) {
      dataDirs.push(mkdtempSync(path.join(tmpdir(), "store-start-")));
      instances.push(
        new ApiServerProcess(
          await freePort(),
          {
            // Development: the demo is seeded on an empty database, and its owner made (a production start
            // seeds nothing unless SEED_DEMO=true, ADR 053).
            NODE_ENV: "development",
            SESSION_SECRET: "concurrent-start-session-secret-long-enough",
            CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
            DATABASE_URL: scratch.url,
            DATA_DIR: dataDirs[index],
            PUBLIC_URL: "http://store.test",
            // Unset SEED_DEMO: each instance seeds the demo catalogue when it finds no products.
            SEED_DEMO: "",
            LOG_LEVEL: "info",
          },
          { keepOutput: true },
        ),
      );
    }
    await Promise.all(instances.map((instance) => instance.start(60_000)));

    for (const instance of instances) {
      const ready = await fetch(`${instance.baseUrl}/readyz`);
      expect(ready.status, instance.output).toBe(200);
      const products = await fetch(`${instance.baseUrl}/v1/product/read`).then((response) => response.json());
      expect(products.payload.length).toBeGreaterThan(0);
    }
    const lines = instances.flatMap((instance) =>
      instance.output
        .split("\n")
        .filter((line) => line.startsWith("{"))
        .map((line) => JSON.parse(line) as { level: string; message: string }),
    );
    // The start that made the demo owner names its password file; the other found the owner.
    const demoOwnerLines = instances.filter((instance) => instance.output.includes("Demo owner for /admin:"));
    expect(demoOwnerLines).toHaveLength(1);
    expect(lines.filter((line) => line.level === "error" || line.level === "warn")).toEqual([]);
    expect(lines.filter((line) => line.message === "demo data seeded")).toHaveLength(1);
    expect(lines.filter((line) => line.message === "store listening")).toHaveLength(2);

    const sql = postgres(scratch.url, { max: 1, onnotice: () => {} });
    try {
      const [migrations] = await sql`select count(*)::int as n from drizzle.__drizzle_migrations`;
      expect(migrations.n).toBe(readMigrationFiles({ migrationsFolder }).length);
      const [products] = await sql`select count(*)::int as n from products`;
      expect(products.n).toBe(demoProducts.length);
      const owners = await sql`select email from users where role = 'owner'`;
      expect(owners.map((owner) => owner.email)).toEqual([DEMO_OWNER_EMAIL]);
    } finally {
      await sql.end();
    }
  }, 90_000);
});
