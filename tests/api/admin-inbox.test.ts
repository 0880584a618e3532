import { and, desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, mailOutbox, requests, tickets } from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { issueChallenge } from "../../api/services/guards/human-check";
import { REQUEST_MESSAGES } from "../../api/services/support/request-records";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * The staff inbox (issue 17, ADR 029): tickets answered as 'Admin', the request queue (complete from stock
 * or pasted, answer, reject, the product's replacement settings) and feedback moderation; roles, mail and
 * the audit log. PGlite and PostgreSQL; the race at the end on PostgreSQL only.
 */

let client: ShopTestApi;
let owner: Awaited<ReturnType<typeof createCustomer>>;
let manager: Awaited<ReturnType<typeof createCustomer>>;
let support: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  owner = await createCustomer(client.db, { role: "owner" });
  manager = await createCustomer(client.db, { role: "manager" });
  support = await createCustomer(client.db, { role: "support" });
});
afterAll(() => client.close());

const as = (who: { token: string }) => ({ token: who.token });
const humanAnswer = () => issueChallenge(client.config, new Date(Date.now() - 5_000)).token!;

/** A customer with a delivered order of a fresh listing whose replacements wait for staff. */
async function delivered(options: { stock?: number } = {}) {
  const listing = await createListing(client.db, { stock: options.stock ?? 3, priceCents: 500 });
  const settings = await client.put(
    `/v1/admin/replacement-settings/${listing.productId}`,
    { autoReplace: false, replacementLimit: 3 },
    as(support),
  );
  expect(settings.status).toBe(200);
  const customer = await createCustomer(client.db, { balanceCents: 500 });
  await addToCart(client, customer.token, listing.optionId, 1);
  const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, as(customer));
  expect(created.status).toBe(201);
  return { listing, customer, orderId: created.body.payload.orderId as string };
}

type Bought = Awaited<ReturnType<typeof delivered>>;
const lineOf = (bought: Bought) => ({
  orderId: bought.orderId,
  productId: bought.listing.productId,
  productOptionId: bought.listing.optionId,
});

async function replacementRequest(bought: Bought): Promise<string> {
  const answer = await client.post(
    "/v1/request/createReplacement",
    { ...lineOf(bought), index: 0, message: "The password stopped working", "g-recaptcha-response": humanAnswer() },
    as(bought.customer),
  );
  expect(answer.status, answer.body.message).toBe(201);
  const [row] = await client.db.select().from(requests).where(eq(requests.orderId, bought.orderId));
  expect(row.status).toBe("pending");
  return row.id;
}

async function lastAudit(objectId: string) {
  const [entry] = await client.db
    .select()
    .from(auditLog)
    .where(eq(auditLog.objectId, objectId))
    .orderBy(desc(auditLog.createdAt), desc(auditLog.id))
    .limit(1);
  return entry;
}

const mailsTo = (email: string) => client.db.select().from(mailOutbox).where(eq(mailOutbox.to, email));

describe("who reaches the inbox", () => {
  it("owners and support do; managers and customers get 403, signed-out callers 401", async () => {
    const customer = await createCustomer(client.db);
    for (const path of ["/v1/admin/tickets", "/v1/admin/requests", "/v1/admin/feedback"]) {
      expect((await client.get(path, as(support))).status, path).toBe(200);
      expect((await client.get(path, as(owner))).status, path).toBe(200);
      expect((await client.get(path, as(manager))).status, path).toBe(403);
      expect((await client.get(path, as(customer))).status, path).toBe(403);
      expect((await client.get(path)).status, path).toBe(401);
    }
    const reply = await client.post(`/v1/admin/tickets/${newId()}/reply`, { message: "Hi" }, as(manager));
    expect(reply.status).toBe(403);
  });
});

describe("tickets", () => {
  it("lists waiting tickets, answers as Admin (the customer is mailed), closes and reopens, all audited", async () => {
    const bought = await delivered();
    const opened = await client.post(
      "/v1/ticket/create",
      { orderId: bought.orderId, subject: "Cannot sign in", message: "It asks for a code" },
      as(bought.customer),
    );
    expect(opened.status).toBe(201);
    const ticketId = opened.body.payload._id as string;

    const waiting = await client.get(`/v1/admin/tickets?filter=waiting&search=${bought.customer.email}`, as(support));
    expect(waiting.body.payload.records).toEqual([
      expect.objectContaining({
        _id: ticketId,
        subject: "Cannot sign in",
        waiting: true,
        customer: { _id: bought.customer.id, email: bought.customer.email, guest: false },
        orderId: bought.orderId,
        messages: 1,
        lastMessage: "It asks for a code",
      }),
    ]);

    const replied = await client.post(
      `/v1/admin/tickets/${ticketId}/reply`,
      { message: "  Please try the code we mailed you.  " },
      as(support),
    );
    expect(replied.status).toBe(200);
    expect(replied.body.payload).toMatchObject({ waiting: false, status: "open" });
    expect(replied.body.payload.messages.at(-1)).toMatchObject({
      author: "Admin",
      fromStaff: true,
      staffEmail: support.email,
      message: "Please try the code we mailed you.",
    });
    // The customer sees 'Admin', never the staff member.
    const mine = await client.get(`/v1/ticket/read/${ticketId}`, as(bought.customer));
    expect(mine.body.payload.messages.at(-1)).toMatchObject({
      username: "Admin",
      message: "Please try the code we mailed you.",
    });
    expect(JSON.stringify(mine.body)).not.toContain(support.email);
    expect((await mailsTo(bought.customer.email)).some((mail) => mail.subject.includes("Cannot sign in"))).toBe(true);
    expect(await lastAudit(ticketId)).toMatchObject({ action: "ticket.reply", actorEmail: support.email });
    const stillWaiting = await client.get(
      `/v1/admin/tickets?filter=waiting&search=${bought.customer.email}`,
      as(support),
    );
    expect(stillWaiting.body.payload.records).toEqual([]);

    const closed = await client.post(`/v1/admin/tickets/${ticketId}/status`, { status: "closed" }, as(owner));
    expect(closed.body).toMatchObject({ message: "Ticket closed", payload: { status: "closed" } });
    const refused = await client.post(`/v1/admin/tickets/${ticketId}/reply`, { message: "More" }, as(support));
    expect(refused.status).toBe(409);
    const reopened = await client.post(`/v1/admin/tickets/${ticketId}/status`, { status: "open" }, as(support));
    expect(reopened.body.message).toBe("Ticket reopened");
    expect(await lastAudit(ticketId)).toMatchObject({
      action: "ticket.reopen",
      changes: { before: { status: "closed" }, after: { status: "open" } },
    });
  });

  it("refuses an empty reply and unknown ids without changing anything", async () => {
    const empty = await client.post(`/v1/admin/tickets/${newId()}/reply`, { message: "   " }, as(support));
    expect(empty).toMatchObject({ status: 400, body: { errors: { message: ["Message is required"] } } });
    expect((await client.post(`/v1/admin/tickets/${newId()}/reply`, { message: "Hi" }, as(support))).status).toBe(404);
    expect((await client.get("/v1/admin/tickets/not-an-id", as(support))).status).toBe(404);
    expect((await client.get("/v1/admin/tickets?filter=everything", as(support))).status).toBe(400);
  });
});

describe("the request queue", () => {
  it("completes a replacement from stock: the customer gets a new credential and a mail", async () => {
    const bought = await delivered({ stock: 3 });
    const requestId = await replacementRequest(bought);
    const queue = await client.get(`/v1/admin/requests?search=${bought.orderId}`, as(support));
    expect(queue.body.payload.records).toEqual([
      expect.objectContaining({
        _id: requestId,
        kind: "replacement",
        status: "pending",
        credentialIndex: 0,
        availableStock: 2,
        product: expect.objectContaining({ autoReplace: false, replacementLimit: 3 }),
      }),
    ]);
    const completed = await client.post(`/v1/admin/requests/${requestId}/complete`, {}, as(support));
    expect(completed.body).toMatchObject({ message: "Replacement delivered; the customer is mailed" });
    const history = await client.post("/v1/request/getRequests", lineOf(bought), as(bought.customer));
    expect(history.body.payload[0]).toMatchObject({ status: "completed", creds: [expect.stringContaining(":")] });
    expect(await lastAudit(requestId)).toMatchObject({
      action: "request.complete",
      actorEmail: support.email,
      changes: { after: { status: "completed", source: "stock" } },
    });
    const again = await client.post(`/v1/admin/requests/${requestId}/complete`, {}, as(support));
    expect(again.status).toBe(409);
  });

  it("completes with a pasted credential, refuses a malformed one, and says when stock is empty", async () => {
    const bought = await delivered({ stock: 1 });
    const requestId = await replacementRequest(bought);
    const noStock = await client.post(`/v1/admin/requests/${requestId}/complete`, {}, as(support));
    expect(noStock).toMatchObject({ status: 409, body: { message: REQUEST_MESSAGES.noStock } });
    const malformed = await client.post(
      `/v1/admin/requests/${requestId}/complete`,
      { credential: "no-colon" },
      as(support),
    );
    expect(malformed.status).toBe(400);
    const pasted = await client.post(
      `/v1/admin/requests/${requestId}/complete`,
      { credential: "fresh.user:fresh-pass" },
      as(owner),
    );
    expect(pasted.status).toBe(200);
    const history = await client.post("/v1/request/getRequests", lineOf(bought), as(bought.customer));
    expect(history.body.payload[0].creds).toEqual(["fresh.user:fresh-pass"]);
    const audit = await lastAudit(requestId);
    expect(JSON.stringify(audit.changes)).not.toContain("fresh-pass");
  });

  it("rejects with a reason the customer reads, answers other requests, and mails either way", async () => {
    const bought = await delivered();
    const requestId = await replacementRequest(bought);
    const noReason = await client.post(`/v1/admin/requests/${requestId}/reject`, { reason: " " }, as(support));
    expect(noReason).toMatchObject({ status: 400, body: { errors: { reason: ["Please write a reason"] } } });
    const rejected = await client.post(
      `/v1/admin/requests/${requestId}/reject`,
      { reason: "The account works: sign in with the new code" },
      as(support),
    );
    expect(rejected.body.payload.status).toBe("rejected");
    const history = await client.post("/v1/request/getRequests", lineOf(bought), as(bought.customer));
    expect(history.body.payload[0]).toMatchObject({
      status: "rejected",
      reason: "The account works: sign in with the new code",
    });

    const asked = await client.post(
      "/v1/request/createRequest",
      { ...lineOf(bought), message: "Which region is this account?" },
      as(bought.customer),
    );
    expect(asked.status).toBe(201);
    const [other] = await client.db
      .select()
      .from(requests)
      .where(and(eq(requests.orderId, bought.orderId), eq(requests.kind, "other")));
    const answered = await client.post(
      `/v1/admin/requests/${other.id}/answer`,
      { answer: "It is a US account." },
      as(support),
    );
    expect(answered.body.payload.status).toBe("completed");
    expect(await lastAudit(other.id)).toMatchObject({ action: "request.answer" });
    expect((await mailsTo(bought.customer.email)).length).toBeGreaterThanOrEqual(3);
  });

  it("sets a product's automatic replacement and limit, validated and audited", async () => {
    const listing = await createListing(client.db, { stock: 1 });
    const bad = await client.put(
      `/v1/admin/replacement-settings/${listing.productId}`,
      { autoReplace: true, replacementLimit: -1 },
      as(support),
    );
    expect(bad).toMatchObject({ status: 400, body: { errors: { replacementLimit: ["At least 0"] } } });
    const saved = await client.put(
      `/v1/admin/replacement-settings/${listing.productId}`,
      { autoReplace: false, replacementLimit: 5 },
      as(owner),
    );
    expect(saved.body.payload).toMatchObject({ autoReplace: false, replacementLimit: 5 });
    expect(await lastAudit(listing.productId)).toMatchObject({
      action: "product.replacement-settings",
      changes: {
        before: { autoReplace: true, replacementLimit: 3 },
        after: { autoReplace: false, replacementLimit: 5 },
      },
    });
    const listed = await client.get("/v1/admin/replacement-settings", as(support));
    expect(listed.body.payload).toContainEqual(
      expect.objectContaining({ _id: listing.productId, replacementLimit: 5 }),
    );
  });
});

describe("feedback moderation", () => {
  it("hides a review from the public list and shows it again; a public reply shows as Admin", async () => {
    const bought = await delivered();
    const left = await client.post(
      "/v1/feedback/create",
      { ...lineOf(bought), stars: 2, message: "Slow delivery this time" },
      as(bought.customer),
    );
    expect(left.status).toBe(201);
    const publicOf = async () =>
      (await client.post("/v1/feedback/readPublic", { productId: bought.listing.productId })).body.payload.records;
    const [review] = await publicOf();

    const hidden = await client.post(`/v1/admin/feedback/${review._id}/visibility`, { visible: false }, as(support));
    expect(hidden.body.message).toBe("Review hidden");
    expect(await publicOf()).toEqual([]);
    const hiddenList = await client.get(
      `/v1/admin/feedback?filter=hidden&search=${bought.customer.email}`,
      as(support),
    );
    expect(hiddenList.body.payload.records).toEqual([expect.objectContaining({ _id: review._id, visible: false })]);
    expect(await lastAudit(review._id)).toMatchObject({ action: "feedback.hide", actorEmail: support.email });

    await client.post(`/v1/admin/feedback/${review._id}/visibility`, { visible: true }, as(support));
    const replied = await client.put(
      `/v1/admin/feedback/${review._id}/reply`,
      { reply: "Sorry! We have added stock." },
      as(support),
    );
    expect(replied.body.message).toBe("Reply published");
    const [shown] = await publicOf();
    expect(shown.reply).toMatchObject({ message: "Sorry! We have added stock." });
    const removed = await client.put(`/v1/admin/feedback/${review._id}/reply`, { reply: "" }, as(support));
    expect(removed.body.message).toBe("Reply removed");
    expect((await publicOf())[0].reply).toBeNull();
    expect((await client.post(`/v1/admin/feedback/${newId()}/visibility`, { visible: true }, as(support))).status).toBe(
      404,
    );
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("races (PostgreSQL)", () => {
  it("two staff completing the same request at once deliver one replacement", async () => {
    const bought = await delivered({ stock: 4 });
    const requestId = await replacementRequest(bought);
    const answers = await Promise.all([
      client.post(`/v1/admin/requests/${requestId}/complete`, {}, as(support)),
      client.post(`/v1/admin/requests/${requestId}/complete`, {}, as(owner)),
      client.post(`/v1/admin/requests/${requestId}/reject`, { reason: "No" }, as(support)),
    ]);
    expect(answers.filter((answer) => answer.status === 200)).toHaveLength(1);
    expect(answers.filter((answer) => answer.status === 409)).toHaveLength(2);
    const history = await client.post("/v1/request/getRequests", lineOf(bought), as(bought.customer));
    expect(history.body.payload).toHaveLength(1);
    const entries = await client.db.select().from(auditLog).where(eq(auditLog.objectId, requestId));
    expect(entries).toHaveLength(1);
  });

  it("a ticket closed by one staff member while another replies ends closed or answered, never both half", async () => {
    const bought = await delivered();
    const opened = await client.post(
      "/v1/ticket/create",
      { orderId: bought.orderId, subject: "Race", message: "Hello" },
      as(bought.customer),
    );
    const ticketId = opened.body.payload._id as string;
    const [reply, close] = await Promise.all([
      client.post(`/v1/admin/tickets/${ticketId}/reply`, { message: "Answer" }, as(support)),
      client.post(`/v1/admin/tickets/${ticketId}/status`, { status: "closed" }, as(owner)),
    ]);
    expect(close.status).toBe(200);
    expect([200, 409]).toContain(reply.status);
    const [row] = await client.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(row.status).toBe("closed");
  });
});
