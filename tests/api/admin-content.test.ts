import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CONTENT_MESSAGES } from "../../contract/admin-content";
import { auditLog, faqs, socialLinks } from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi, nextIp } from "../support/shop";

/*
 * The store's content and payment gateways in the back office (ADR 031): roles, validation, what the
 * storefront's public reads show after each change, checkout honouring a gateway switched off, and the
 * audit entry of every change. PGlite and PostgreSQL.
 */

let client: ShopTestApi;
let owner: Awaited<ReturnType<typeof createCustomer>>;
let manager: Awaited<ReturnType<typeof createCustomer>>;
let support: Awaited<ReturnType<typeof createCustomer>>;
let customer: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  owner = await createCustomer(client.db, { role: "owner" });
  manager = await createCustomer(client.db, { role: "manager" });
  support = await createCustomer(client.db, { role: "support" });
  customer = await createCustomer(client.db);
});
afterAll(() => client.close());

const as = (who: { token: string }) => ({ token: who.token });

async function lastAudit(objectId: string) {
  const [entry] = await client.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.objectId, objectId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(1);
  return entry;
}

async function publicFaqs(): Promise<{ _id: string; question: string; answer: string }[]> {
  return (await client.get("/v1/faq/read")).body.payload;
}

describe("who may change content and gateways", () => {
  it("refuses customers and support staff content (403), signed-out callers (401), and managers the gateways", async () => {
    for (const who of [customer, support]) {
      expect((await client.get("/v1/admin/content", as(who))).status).toBe(403);
      expect((await client.post("/v1/admin/faqs", { question: "Q?", answer: "A." }, as(who))).status).toBe(403);
      expect((await client.put("/v1/admin/announcement", { text: "Hi", active: true }, as(who))).status).toBe(403);
    }
    expect((await client.get("/v1/admin/content")).status).toBe(401);
    expect((await client.get("/v1/admin/content", as(manager))).status).toBe(200);
    expect((await client.get("/v1/admin/gateways", as(manager))).status).toBe(403);
    expect((await client.put("/v1/admin/gateways/balance", { enabled: false }, as(manager))).status).toBe(403);
    expect((await client.get("/v1/admin/gateways", as(owner))).status).toBe(200);
    const untouched = await client.db.select({ n: sql<number>`count(*)`.mapWith(Number) }).from(faqs);
    expect(untouched[0].n).toBe(0);
  });
});

describe("the FAQ", () => {
  it("adds, edits, moves and deletes questions; the public read follows; each change is audited", async () => {
    const first = await client.post("/v1/admin/faqs", { question: "  How fast?  ", answer: "At once." }, as(manager));
    expect(first.status).toBe(201);
    expect(first.body.payload).toMatchObject({ question: "How fast?", answer: "At once." });
    const second = await client.post("/v1/admin/faqs", { question: "Refunds?", answer: "To balance." }, as(owner));
    expect((await publicFaqs()).map((faq) => faq.question)).toEqual(["How fast?", "Refunds?"]);

    const moved = await client.post(`/v1/admin/faqs/${second.body.payload._id}/move`, { direction: "up" }, as(manager));
    expect(moved.body).toMatchObject({ message: "Refunds? moved up", payload: { moved: true } });
    expect((await publicFaqs()).map((faq) => faq.question)).toEqual(["Refunds?", "How fast?"]);
    const atTop = await client.post(`/v1/admin/faqs/${second.body.payload._id}/move`, { direction: "up" }, as(manager));
    expect(atTop.body).toMatchObject({ message: "Refunds? is already at the top", payload: { moved: false } });

    const edited = await client.put(
      `/v1/admin/faqs/${first.body.payload._id}`,
      { question: "How fast is delivery?", answer: "Within a minute." },
      as(manager),
    );
    expect(edited.status).toBe(200);
    expect(await lastAudit(first.body.payload._id)).toMatchObject({
      action: "faq.edit",
      actorEmail: manager.email,
      changes: {
        before: { question: "How fast?", answer: "At once." },
        after: { question: "How fast is delivery?", answer: "Within a minute." },
      },
    });

    const deleted = await client.delete(`/v1/admin/faqs/${second.body.payload._id}`, as(manager));
    expect(deleted.body.message).toBe("Question deleted: Refunds?");
    expect((await publicFaqs()).map((faq) => faq.question)).toEqual(["How fast is delivery?"]);
    expect(await lastAudit(second.body.payload._id)).toMatchObject({ action: "faq.delete" });
    const again = await client.delete(`/v1/admin/faqs/${second.body.payload._id}`, as(manager));
    expect(again).toMatchObject({ status: 404, body: { message: CONTENT_MESSAGES.faqNotFound } });
    await client.delete(`/v1/admin/faqs/${first.body.payload._id}`, as(manager));
  });

  it("refuses an empty or overlong question with a message per field, and changes nothing", async () => {
    const answer = await client.post("/v1/admin/faqs", { question: "   ", answer: "x".repeat(5_001) }, as(manager));
    expect(answer.status).toBe(400);
    expect(answer.body.errors).toMatchObject({
      question: ["Please enter the question"],
      answer: ["The answer is at most 5,000 characters"],
    });
    expect(await publicFaqs()).toEqual([]);
    expect((await client.put(`/v1/admin/faqs/${newId()}`, { question: "Q", answer: "A" }, as(manager))).status).toBe(
      404,
    );
    expect((await client.put("/v1/admin/faqs/not-an-id", { question: "Q", answer: "A" }, as(manager))).status).toBe(
      404,
    );
  });
});

describe("social links", () => {
  it("keeps http(s) links only, in the order staff set, and shows them in the public read", async () => {
    const bad = await client.post("/v1/admin/social-links", { name: "X", link: "javascript:alert(1)" }, as(manager));
    expect(bad.status).toBe(400);
    expect(bad.body.errors.link).toEqual(["Enter a full web address starting with https:// (or http://)"]);

    const discord = await client.post(
      "/v1/admin/social-links",
      { name: "Discord", link: "https://discord.gg/store" },
      as(manager),
    );
    const telegram = await client.post(
      "/v1/admin/social-links",
      { name: "Telegram", link: "https://t.me/store" },
      as(manager),
    );
    await client.post(`/v1/admin/social-links/${discord.body.payload._id}/move`, { direction: "down" }, as(manager));
    const read = await client.get("/v1/social_link/read");
    expect(read.body.payload.map((link: { name: string }) => link.name)).toEqual(["Telegram", "Discord"]);
    const positions = await client.db
      .select({ position: socialLinks.position })
      .from(socialLinks)
      .orderBy(socialLinks.position);
    expect(positions.map((row) => row.position)).toEqual([0, 1]);

    await client.put(
      `/v1/admin/social-links/${telegram.body.payload._id}`,
      { name: "Telegram", link: "https://t.me/store_news" },
      as(manager),
    );
    expect(await lastAudit(telegram.body.payload._id)).toMatchObject({
      action: "social-link.edit",
      changes: { before: { link: "https://t.me/store" }, after: { link: "https://t.me/store_news" } },
    });
  });
});

describe("the announcement and the legal documents", () => {
  it("publishes an announcement, replaces it, and takes it down", async () => {
    await client.put("/v1/admin/announcement", { text: "Summer sale!", active: true }, as(manager));
    expect((await client.get("/v1/announcement/read")).body.payload).toEqual({ text: "Summer sale!" });
    await client.put("/v1/admin/announcement", { text: "Autumn sale!", active: true }, as(manager));
    expect((await client.get("/v1/announcement/read")).body.payload).toEqual({ text: "Autumn sale!" });
    const down = await client.put("/v1/admin/announcement", { text: "Autumn sale!", active: false }, as(manager));
    expect(down.body).toMatchObject({ message: "Announcement taken down", payload: { shown: false } });
    expect((await client.get("/v1/announcement/read")).body.payload).toBeNull();
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "announcement.remove"), eq(auditLog.actorEmail, manager.email)));
    expect(entry.changes).toMatchObject({ before: { text: "Autumn sale!", shown: true } });
  });

  it("saves a legal document's own text, and an empty text brings back the built-in one", async () => {
    const text = "## Our terms\n\nYou buy, we deliver.";
    const saved = await client.put("/v1/admin/documents/terms-of-service", { text }, as(manager));
    expect(saved.body).toMatchObject({ message: "Terms of Service saved", payload: { builtIn: false } });
    const read = await client.get("/v1/doc/read?name=terms-of-service");
    expect(read.body.payload).toEqual([expect.objectContaining({ name: "terms-of-service", description: text })]);
    expect(await lastAudit("terms-of-service")).toMatchObject({ action: "document.edit" });

    const reset = await client.put("/v1/admin/documents/terms-of-service", { text: "  " }, as(manager));
    expect(reset.body.payload).toEqual({ title: "Terms of Service", builtIn: true });
    expect((await client.get("/v1/doc/read?name=terms-of-service")).body.payload).toEqual([]);
    expect((await client.put("/v1/admin/documents/cookie-policy", { text }, as(manager))).status).toBe(404);
  });
});

describe("payment gateways", () => {
  it("lists each gateway with whether its keys are configured; one without keys cannot be turned on", async () => {
    const listed = await client.get("/v1/admin/gateways", as(owner));
    const byName = Object.fromEntries(listed.body.payload.map((gateway: { name: string }) => [gateway.name, gateway]));
    expect(byName.balance).toMatchObject({ enabled: true, configured: true, offered: true });
    expect(byName.stripe).toMatchObject({ configured: false, offered: false });
    const refused = await client.put("/v1/admin/gateways/stripe", { enabled: true }, as(owner));
    expect(refused).toMatchObject({ status: 409, body: { message: CONTENT_MESSAGES.gatewayNotConfigured } });
    expect((await client.put("/v1/admin/gateways/paypal", { enabled: true }, as(owner))).status).toBe(404);
  });

  it("a gateway turned off is not offered, and checkout refuses it until it is turned on again", async () => {
    const listing = await createListing(client.db, { title: "Gateway test", stock: 2 });
    const buyer = await createCustomer(client.db, { balanceCents: 10_000 });
    await addToCart(client, buyer.token, listing.optionId, 1);

    const off = await client.put("/v1/admin/gateways/balance", { enabled: false }, as(owner));
    expect(off.body).toMatchObject({ message: "Balance is off at checkout", payload: { enabled: false } });
    const offered = await client.get("/v1/payment_gateway/read");
    expect(offered.body.payload).toContainEqual(expect.objectContaining({ name: "balance", status: false }));
    const refused = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance" },
      { token: buyer.token, ip: nextIp() },
    );
    expect(refused.status).toBe(400);
    expect(await lastAudit("balance")).toMatchObject({
      action: "gateway.disable",
      actorEmail: owner.email,
      changes: { before: { enabled: true }, after: { enabled: false } },
    });

    await client.put("/v1/admin/gateways/balance", { enabled: true }, as(owner));
    const paid = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance" },
      { token: buyer.token, ip: nextIp() },
    );
    expect(paid.status).toBe(201);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("moves at the same time (PostgreSQL)", () => {
  it("keeps every position distinct when staff move questions at once", async () => {
    const ids: string[] = [];
    for (const index of [1, 2, 3, 4, 5]) {
      ids.push(
        (await client.post("/v1/admin/faqs", { question: `Q${index}`, answer: "A" }, as(manager))).body.payload._id,
      );
    }
    const answers = await Promise.all(
      ids.flatMap((id) => [
        client.post(`/v1/admin/faqs/${id}/move`, { direction: "up" }, as(manager)),
        client.post(`/v1/admin/faqs/${id}/move`, { direction: "down" }, as(owner)),
      ]),
    );
    // Each move waits for the one before it: none fails on a deadlock, none leaves two at one place.
    expect(answers.map((answer) => answer.status)).toEqual(answers.map(() => 200));
    const rows = await client.db.select({ position: faqs.position }).from(faqs);
    expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
    expect((await publicFaqs()).map((faq) => faq.question).sort()).toEqual(["Q1", "Q2", "Q3", "Q4", "Q5"]);
  });

  it("never deadlocks an edit, a delete or an add against a move (they take the list's lock in one order)", async () => {
    const ids: string[] = [];
    for (const index of [1, 2, 3, 4, 5, 6]) {
      ids.push(
        (await client.post("/v1/admin/faqs", { question: `E${index}`, answer: "A" }, as(manager))).body.payload._id,
      );
    }
    const answers = await Promise.all(
      ids.flatMap((id, index) => [
        client.put(`/v1/admin/faqs/${id}`, { question: `E${index + 1} edited`, answer: "B" }, as(owner)),
        client.post(`/v1/admin/faqs/${ids[(index + 1) % ids.length]}/move`, { direction: "up" }, as(manager)),
        client.post(`/v1/admin/faqs/${ids[(index + 2) % ids.length]}/move`, { direction: "down" }, as(owner)),
        ...(index === 5 ? [client.post("/v1/admin/faqs", { question: "E7", answer: "A" }, as(manager))] : []),
        ...(index === 4 ? [client.delete(`/v1/admin/faqs/${id}`, as(owner))] : []),
      ]),
    );
    // Before the shared lock, an edit holding its row met a move holding the table: 40P01, answered 500.
    expect(answers.filter((answer) => answer.status >= 500)).toEqual([]);
    const rows = await client.db.select({ position: faqs.position }).from(faqs);
    expect(new Set(rows.map((row) => row.position)).size).toBe(rows.length);
  });
});
