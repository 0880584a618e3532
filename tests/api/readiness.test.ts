import { describe, expect, it } from "vitest";
import { checkReadiness } from "../../api/db/readiness";
import { createTestDatabase } from "../support/database";

/* /readyz's answer (server.ts): the database answers and this build's migrations are applied. */
describe("readiness", () => {
  it("is ready on a migrated database, not ready when a migration is missing, unavailable when the database is gone", async () => {
    const database = await createTestDatabase();
    let closed = false;
    try {
      expect(await checkReadiness(database.db)).toEqual({ ready: true });

      // As an instance of a newer release sees a database its migrations have not reached yet.
      await database.asOwner(
        "delete from drizzle.__drizzle_migrations where created_at = (select max(created_at) from drizzle.__drizzle_migrations)",
      );
      expect(await checkReadiness(database.db)).toEqual({ ready: false, reason: "migrations pending" });

      await database.close();
      closed = true;
      expect(await checkReadiness(database.db)).toEqual({ ready: false, reason: "database unavailable" });
    } finally {
      if (!closed) await database.close();
    }
  });
});
