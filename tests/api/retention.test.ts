import { mkdirSync, mkdtempSync, readdirSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import {
  auditLog,
  idempotencyKeys,
  mailOutbox,
  orders,
  passwordResets,
  payments,
  rateLimits,
  signInChallenges,
  tickets,
  users,
} from "../../api/db/schema";
import { applyRetention } from "../../api/services/privacy/retention";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

/*
 * The retention rules (issue 29, ADR 044) with RETENTION_DAYS=30: rows moved back in time past the window are
 * removed or stripped of addresses, rows inside it stay, and paid orders and the accounts that paid never go.
 * PGlite and, with TEST_DATABASE_URL, PostgreSQL (where two instances run the rules at once).
 */

const DAY = 24 * 60 * 60 * 1000;
const now = new Date();
const old = new Date(now.getTime() - 31 * DAY);
const recent = new Date(now.getTime() - 29 * DAY);

let client: ShopTestApi;
let dataDir: string;

beforeAll(async () => {
  dataDir = mkdtempSync(path.join(tmpdir(), "store-retention-"));
  client = await createShopTestApi({ RETENTION_DAYS: "30", DATA_DIR: dataDir });
});
afterAll(async () => {
  await client.close();
  rmSync(dataDir, { recursive: true, force: true });
});

async function order(userId: string | null, fields: Partial<typeof orders.$inferInsert>) {
  const [row] = await client.db
    .insert(orders)
    .values({
      userId,
      email: "someone@example.com",
      subtotalCents: 500,
      priceCents: 500,
      paymentMethod: "sandbox",
      clientIp: "203.0.113.9",
      ...fields,
    })
    .returning({ id: orders.id });
  return row.id;
}

const exists = async (table: typeof orders | typeof users | typeof tickets, id: string) =>
  (await client.db.select({ id: table.id }).from(table).where(eq(table.id, id))).length === 1;

describe("GET /v1/privacy/retention", () => {
  it("answers the configured window, which /privacy-policy states", async () => {
    const answer = await client.get("/v1/privacy/retention");
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({ retentionDays: 30 });
    const other = await createShopTestApi({ RETENTION_DAYS: "12" });
    try {
      expect((await other.get("/v1/privacy/retention")).body.payload).toEqual({ retentionDays: 12 });
    } finally {
      await other.close();
    }
  });
});

describe("applyRetention", () => {
  it("removes what is past the window, keeps what is inside it, and never a paid order or an account that paid", async () => {
    // Guest checkouts' accounts: one paid long ago, one never paid long ago, one never paid lately.
    const paidGuest = await createCustomer(client.db, { autoCreated: true, now: old });
    const idleGuest = await createCustomer(client.db, { autoCreated: true, now: old });
    const newGuest = await createCustomer(client.db, { autoCreated: true });
    const member = await createCustomer(client.db);
    await client.db
      .update(users)
      .set({ createdAt: old })
      .where(inArray(users.id, [paidGuest.id, idleGuest.id, member.id]));
    const paidOrder = await order(paidGuest.id, { status: "completed", paidAt: old, createdAt: old });
    const oldUnpaid = await order(idleGuest.id, { status: "expired", createdAt: old });
    const [payment] = await client.db
      .insert(payments)
      .values({ purpose: "order", orderId: oldUnpaid, userId: idleGuest.id, gateway: "sandbox", amountCents: 500 })
      .returning({ id: payments.id });
    const oldCancelled = await order(member.id, { status: "cancelled", createdAt: old });
    const recentUnpaid = await order(newGuest.id, { status: "expired", createdAt: recent });

    const [oldGuestTicket, recentGuestTicket] = await client.db
      .insert(tickets)
      .values([
        { guestEmail: "guest@example.com", orderId: "", subject: "Old", updatedAt: old, createdAt: old },
        { guestEmail: "guest@example.com", orderId: "", subject: "New", updatedAt: recent, createdAt: recent },
      ])
      .returning({ id: tickets.id });

    await client.db.insert(rateLimits).values([
      { key: "login:ip:203.0.113.9", windowStart: old, hits: 3 },
      { key: "login:ip:203.0.113.10", windowStart: recent, hits: 1 },
    ]);
    // Inserted as they were written then: the log is append-only, so its rows are dated when they are added.
    const entry = { actorEmail: "owner@store.example", actorRole: "owner", objectType: "t", changes: {} };
    await client.db.insert(auditLog).values([
      { ...entry, action: "test.old4", objectId: "r1", ip: "203.0.113.77", createdAt: old },
      { ...entry, action: "test.old6", objectId: "r2", ip: "2001:db8:1234:5678::1", createdAt: old },
      { ...entry, action: "test.new", objectId: "r3", ip: "203.0.113.78", createdAt: recent },
    ]);

    await client.db.insert(passwordResets).values([
      { userId: member.id, codeHash: "expired", expiresAt: new Date(now.getTime() - 60_000) },
      { userId: member.id, codeHash: "valid", expiresAt: new Date(now.getTime() + 600_000) },
    ]);
    await client.db.insert(signInChallenges).values([
      { userId: member.id, tokenHash: "expired", expiresAt: new Date(now.getTime() - 60_000) },
      { userId: member.id, tokenHash: "valid", expiresAt: new Date(now.getTime() + 300_000) },
    ]);
    await client.db.insert(idempotencyKeys).values([
      { scope: "user:x", route: "r", key: "old", fingerprint: "f", expiresAt: new Date(now.getTime() - 1) },
      { scope: "user:x", route: "r", key: "live", fingerprint: "f", expiresAt: new Date(now.getTime() + DAY) },
    ]);
    const [sentOld, pendingOld, sentRecent] = await client.db
      .insert(mailOutbox)
      .values([
        { to: "a@example.com", subject: "s", text: "t", status: "sent", createdAt: old, sentAt: old },
        { to: "b@example.com", subject: "s", text: "t", status: "pending", createdAt: old },
        { to: "c@example.com", subject: "s", text: "t", status: "sent", createdAt: recent, sentAt: recent },
      ])
      .returning({ id: mailOutbox.id });
    const outbox = path.join(dataDir, "outbox");
    mkdirSync(outbox, { recursive: true });
    writeFileSync(path.join(outbox, "old.eml"), "To: a@example.com\n");
    utimesSync(path.join(outbox, "old.eml"), old, old);
    writeFileSync(path.join(outbox, "recent.eml"), "To: c@example.com\n");

    const result = await applyRetention({ db: client.db, config: client.config }, { now });
    expect(result).toMatchObject({ unpaidOrders: 2, guestAccounts: 1, guestTickets: 1, mailFiles: 1 });

    expect(await exists(orders, paidOrder)).toBe(true);
    expect(await exists(orders, oldUnpaid)).toBe(false);
    expect(await exists(orders, oldCancelled)).toBe(false);
    expect(await exists(orders, recentUnpaid)).toBe(true);
    expect(await client.db.select().from(payments).where(eq(payments.id, payment.id))).toEqual([]);
    expect(await exists(users, paidGuest.id)).toBe(true);
    expect(await exists(users, idleGuest.id)).toBe(false);
    expect(await exists(users, newGuest.id)).toBe(true);
    expect(await exists(users, member.id)).toBe(true);
    expect(await exists(tickets, oldGuestTicket.id)).toBe(false);
    expect(await exists(tickets, recentGuestTicket.id)).toBe(true);

    const [paid] = await client.db.select().from(orders).where(eq(orders.id, paidOrder));
    expect(paid).toMatchObject({ status: "completed", clientIp: null, email: "someone@example.com" });
    const [kept] = await client.db.select().from(orders).where(eq(orders.id, recentUnpaid));
    expect(kept.clientIp).toBe("203.0.113.9");
    expect((await client.db.select().from(rateLimits)).map((row) => row.key)).toEqual(["login:ip:203.0.113.10"]);
    const addresses = Object.fromEntries(
      (
        await client.db
          .select()
          .from(auditLog)
          .where(inArray(auditLog.objectId, ["r1", "r2", "r3"]))
      ).map((row) => [row.objectId, row.ip]),
    );
    expect(addresses).toEqual({ r1: "203.0.113.0/24", r2: "2001:db8:1234::/48", r3: "203.0.113.78" });
    expect((await client.db.select().from(passwordResets)).map((row) => row.codeHash)).toEqual(["valid"]);
    expect((await client.db.select().from(signInChallenges)).map((row) => row.tokenHash)).toEqual(["valid"]);
    expect((await client.db.select().from(idempotencyKeys)).map((row) => row.key)).toEqual(["live"]);
    expect((await client.db.select({ id: mailOutbox.id }).from(mailOutbox)).map((row) => row.id).sort()).toEqual(
      [pendingOld.id, sentRecent.id].sort(),
    );
    expect(sentOld.id).toBeTruthy();
    expect(readdirSync(outbox)).toEqual(["recent.eml"]);
  });

  it("runs once an hour across instances: two at once, or one soon after, find the turn taken", async () => {
    const later = new Date(now.getTime() + 2 * 60 * 60 * 1000);
    const deps = { db: client.db, config: client.config };
    const [first, second] = await Promise.all([
      applyRetention(deps, { now: later }),
      applyRetention(deps, { now: later }),
    ]);
    expect([first, second].filter((result) => result !== undefined)).toHaveLength(1);
    expect(await applyRetention(deps, { now: new Date(later.getTime() + 10 * 60_000) })).toBeUndefined();
    expect(await applyRetention(deps, { now: new Date(later.getTime() + 61 * 60_000) })).toBeDefined();
  });
});
