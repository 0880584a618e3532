import { randomBytes } from "node:crypto";
import { existsSync, mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import { sql } from "drizzle-orm";
import type { Executor } from "./client";
import { users } from "./schema";
import { createOrPromoteOwner } from "../services/staff/members";

export const DEMO_OWNER_EMAIL = "owner@store.localhost";
export const DEMO_OWNER_FILE = "demo-owner.txt";

export type DemoOwner = { email: string; file: string };

/**
 * In development with the demo catalogue, a demo owner so the back office can be tried at once. Called by the
 * demo seed under its lock (api/db/seed.ts), so two stores starting together on one database make it once.
 * Its password is random and written to DATA_DIR/demo-owner.txt only: the answer (once, when it is made) names
 * the file for the start-up to print, never the password, since a terminal's output often ends up in a log (ADR 023).
 */
export async function ensureDemoOwner(db: Executor, dataDir: string): Promise<DemoOwner | undefined> {
  const file = path.join(dataDir, DEMO_OWNER_FILE);
  if (existsSync(file)) return undefined;
  const [existing] = await db
    .select({ id: users.id })
    .from(users)
    .where(sql`lower(${users.email}) = ${DEMO_OWNER_EMAIL}`);
  if (existing) return undefined;
  const password = randomBytes(12).toString("base64url");
  await createOrPromoteOwner(db, { email: DEMO_OWNER_EMAIL, password });
  mkdirSync(dataDir, { recursive: true });
  writeFileSync(
    file,
    `The demo owner of this development store (npm run admin:create makes real ones).\nemail: ${DEMO_OWNER_EMAIL}\npassword: ${password}\nSign in at /login, then open /admin.\n`,
    { mode: 0o600 },
  );
  return { email: DEMO_OWNER_EMAIL, file };
}
