import { randomBytes } from "node:crypto";
import { asc, eq, inArray } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REDEEM_KEY_INVALID } from "../../contract/redeem-key";
import { auditLog, redeemKeys } from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { KEY_MESSAGES } from "../../api/services/keys/admin";
import { issueChallenge } from "../../api/services/guards/human-check";
import { type ShopTestApi, createCustomer, createListing, createShopTestApi, nextIp } from "../support/shop";

/* Redeem keys in the back office (issue 16; ADR 021, 025), on PGlite and (TEST_DATABASE_URL) PostgreSQL. */

let client: ShopTestApi;
let owner: Awaited<ReturnType<typeof createCustomer>>;
beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  owner = await createCustomer(client.db, { role: "owner" });
});
afterAll(() => client.close());

const freshListing = (stock = 3) =>
  createListing(client.db, { title: `Keyed ${randomBytes(3).toString("hex")}`, stock });

type Generate = { optionId: string } & Record<string, unknown>;
function generate(body: Generate, token = owner.token) {
  return client.post("/v1/admin/keys/generate", { durationDays: 30, quantity: 1, count: 1, ...body }, { token });
}

function redeem(email: string, key: string) {
  return client.post(
    "/v1/order/redeemKey",
    { email, key, "g-recaptcha-response": issueChallenge(client.config, new Date(Date.now() - 5_000)).token! },
    { ip: nextIp() },
  );
}

async function listKeys(query: string, token = owner.token) {
  const answer = await client.get(`/v1/admin/keys?${query}`, { token });
  expect(answer.status, answer.body.message).toBe(200);
  return answer.body.payload as {
    records: { _id: string; hint: string; state: string; orderId: string | null; redeemedBy: string | null }[];
    pager: { total: number; next: number | null };
  };
}

describe("POST /v1/admin/keys/generate", () => {
  it("answers the codes once, stores only their hashes, and audits the batch without a code", async () => {
    const listing = await freshListing();
    const answer = await generate({ optionId: listing.optionId, quantity: 2, count: 3 });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe("Generated 3 keys");
    const batch = answer.body.payload;
    expect(batch).toMatchObject({ product: listing.title, option: "Private", durationDays: 30, quantity: 2 });
    expect(batch.codes).toHaveLength(3);
    const stored = await client.db.select().from(redeemKeys).where(eq(redeemKeys.batchId, batch.batchId));
    expect(stored).toHaveLength(3);
    const [entry] = await client.db.select().from(auditLog).where(eq(auditLog.objectId, batch.batchId));
    expect(entry).toMatchObject({
      action: "keys.generate",
      objectType: "keyBatch",
      actorEmail: owner.email,
      changes: {
        before: null,
        after: { keys: 3, optionId: listing.optionId, durationDays: 30, quantity: 2, expiresAt: null },
      },
    });
    const everything = JSON.stringify({ stored, entry });
    for (const code of batch.codes as string[]) {
      expect(everything).not.toContain(code);
      expect(everything).not.toContain(code.replace(/-/g, ""));
    }
    // The list shows only the hint.
    const listed = await listKeys(`batchId=${batch.batchId}`);
    expect(listed.records.map((key) => key.hint).sort()).toEqual(
      batch.codes.map((code: string) => code.slice(-4)).sort(),
    );
    expect(JSON.stringify(listed)).not.toContain(batch.codes[0]);
  });

  it("makes one batch of one form however often it is posted", async () => {
    const listing = await freshListing();
    const batchId = newId();
    expect((await generate({ optionId: listing.optionId, count: 2, batchId })).status).toBe(200);
    const again = await generate({ optionId: listing.optionId, count: 2, batchId });
    expect(again.status).toBe(409);
    expect(again.body.message).toBe(KEY_MESSAGES.batchExists);
    expect(await client.db.select().from(redeemKeys).where(eq(redeemKeys.batchId, batchId))).toHaveLength(2);
  });

  it("refuses bad counts, quantities, durations, options and past expiries, changing nothing", async () => {
    const listing = await freshListing();
    const before = (await client.db.select().from(redeemKeys)).length;
    for (const body of [
      { count: 0 },
      { count: 1001 },
      { quantity: 0 },
      { quantity: 1000 },
      { count: "many" },
      { expiresAt: "tomorrow" },
    ]) {
      const answer = await generate({ optionId: listing.optionId, ...body });
      expect(answer.status, JSON.stringify(body)).toBe(400);
    }
    const past = await generate({ optionId: listing.optionId, expiresAt: new Date(Date.now() - 60_000).toISOString() });
    expect(past.status).toBe(400);
    expect(past.body.message).toBe(KEY_MESSAGES.expiryPassed);
    expect((await generate({ optionId: listing.optionId, durationDays: 7 })).status).toBe(404);
    expect((await generate({ optionId: newId() })).status).toBe(404);
    expect((await client.db.select().from(redeemKeys)).length).toBe(before);
  });

  it("lists the options with their durations for the form", async () => {
    const listing = await freshListing();
    const answer = await client.get("/v1/admin/keys/options", { token: owner.token });
    expect(answer.body.payload.records).toContainEqual({
      _id: listing.optionId,
      title: "Private",
      product: { _id: listing.productId, title: listing.title },
      durations: [{ days: 30, title: "1 Month Warranty" }],
    });
  });
});

describe("GET /v1/admin/keys and POST /v1/admin/keys/revoke", () => {
  it("lists each key's state, who used it and for which order, with filters and pages", async () => {
    const listing = await freshListing(5);
    const batch = (await generate({ optionId: listing.optionId, count: 4 })).body.payload;
    const inAnHour = new Date(Date.now() + 60 * 60_000).toISOString();
    const expiring = (await generate({ optionId: listing.optionId, count: 1, expiresAt: inAnHour })).body.payload;
    await client.db
      .update(redeemKeys)
      .set({ expiresAt: new Date(Date.now() - 1000) })
      .where(eq(redeemKeys.batchId, expiring.batchId));

    const email = `redeemer-${randomBytes(4).toString("hex")}@example.com`;
    const redeemed = await redeem(email, batch.codes[0]);
    expect(redeemed.status).toBe(201);
    const keys = await listKeys(`optionId=${listing.optionId}`);
    const usedKey = keys.records.find((key) => key.state === "used")!;
    expect(usedKey).toMatchObject({ orderId: redeemed.body.payload.orderId, redeemedBy: email });
    expect(usedKey.hint).toBe(batch.codes[0].slice(-4));
    const toRevoke = keys.records.filter((key) => key.state === "unused").slice(0, 2);
    const revoke = await client.post(
      "/v1/admin/keys/revoke",
      { keyIds: [...toRevoke.map((key) => key._id), usedKey._id] },
      { token: owner.token },
    );
    expect(revoke.status).toBe(200);
    expect(revoke.body).toMatchObject({ message: "Revoked 2 keys", payload: { revoked: 2 } });

    const states = async (state: string) =>
      (await listKeys(`optionId=${listing.optionId}&state=${state}`)).records.map((key) => key._id);
    expect(await states("used")).toEqual([usedKey._id]);
    expect((await states("revoked")).sort()).toEqual(toRevoke.map((key) => key._id).sort());
    expect(await states("unused")).toHaveLength(1);
    expect(await states("expired")).toHaveLength(1);
    const byHint = await listKeys(`optionId=${listing.optionId}&hint=${batch.codes[0].slice(-4).toLowerCase()}`);
    expect(byHint.records.map((key) => key._id)).toContain(usedKey._id);
    expect((await client.get("/v1/admin/keys?state=lost", { token: owner.token })).status).toBe(400);
    expect((await client.get("/v1/admin/keys?optionId=nope", { token: owner.token })).status).toBe(400);

    // A revoked key is refused like any bad key, and stays unused.
    const revokedCode = batch.codes.find((code: string) => code.endsWith(toRevoke[0].hint))!;
    const refused = await redeem(`late-${randomBytes(3).toString("hex")}@example.com`, revokedCode);
    expect(refused.status).toBe(400);
    expect(refused.body.message).toBe(REDEEM_KEY_INVALID);

    const entries = await client.db
      .select()
      .from(auditLog)
      .where(inArray(auditLog.objectId, [...toRevoke.map((key) => key._id), usedKey._id]))
      .orderBy(asc(auditLog.objectId));
    expect(entries).toHaveLength(2);
    for (const entry of entries) {
      expect(entry).toMatchObject({
        action: "keys.revoke",
        objectType: "redeemKey",
        changes: { before: { state: "unused" }, after: { state: "revoked" } },
      });
      expect(entry.objectLabel).toMatch(new RegExp(`^…[0-9A-Z]{4} ${listing.title} — Private$`));
    }

    const nothing = await client.post("/v1/admin/keys/revoke", { keyIds: [usedKey._id] }, { token: owner.token });
    expect(nothing.status).toBe(409);
    expect(nothing.body.message).toBe(KEY_MESSAGES.noneRevoked);
    expect((await client.post("/v1/admin/keys/revoke", { keyIds: [] }, { token: owner.token })).status).toBe(400);
  });

  it("pages 50 keys at a time", async () => {
    const listing = await freshListing();
    await generate({ optionId: listing.optionId, count: 51 });
    const first = await listKeys(`optionId=${listing.optionId}`);
    expect(first.records).toHaveLength(50);
    expect(first.pager).toMatchObject({ total: 51, next: 2 });
    expect((await listKeys(`optionId=${listing.optionId}&page=2`)).records).toHaveLength(1);
  });

  it("refuses support and customers, and lets a manager in", async () => {
    const listing = await freshListing();
    const support = await createCustomer(client.db, { role: "support" });
    const customer = await createCustomer(client.db);
    const manager = await createCustomer(client.db, { role: "manager" });
    const [key] = (await generate({ optionId: listing.optionId })).body.payload.codes;
    const [row] = (await listKeys(`optionId=${listing.optionId}`)).records;
    for (const token of [support.token, customer.token]) {
      expect((await client.get("/v1/admin/keys", { token })).status).toBe(403);
      expect((await client.get("/v1/admin/keys/options", { token })).status).toBe(403);
      expect((await generate({ optionId: listing.optionId }, token)).status).toBe(403);
      expect((await client.post("/v1/admin/keys/revoke", { keyIds: [row._id] }, { token })).status).toBe(403);
    }
    expect((await listKeys(`optionId=${listing.optionId}`)).records).toHaveLength(1);
    expect((await listKeys(`optionId=${listing.optionId}`, manager.token)).records[0].state).toBe("unused");
    expect(key).toMatch(/^[0-9A-Z-]{23}$/);
  });
});
