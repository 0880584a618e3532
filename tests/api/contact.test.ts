import { randomBytes } from "node:crypto";
import { and, desc, eq } from "drizzle-orm";
import { afterAll, afterEach, beforeAll, describe, expect, it, vi } from "vitest";
import { createApi } from "../../api/app";
import { auditLog, mailOutbox, orders, ticketLinks, ticketMessages, tickets } from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import { issueChallenge } from "../../api/services/guards/human-check";
import { ticketLinkHash } from "../../api/services/support/ticket-links";
import { CONTACT_CLOSED, CONTACT_NOT_FOUND, CONTACT_ORDER_NOT_FOUND } from "../../contract/contact";
import { HUMAN_CHECK_FAILED } from "../../api/services/guards/human-check";
import { newId } from "../../api/db/ids";
import { type ShopTestApi, createCustomer, createShopTestApi, nextIp } from "../support/shop";

/*
 * Guest support (issue 26 item 3, ADR 039): POST /v1/contact opens a ticket with an email and no account, the
 * mailed link reads and answers it, staff answer from the inbox and the guest is mailed the answer with a link.
 */

let client: ShopTestApi;
let support: Awaited<ReturnType<typeof createCustomer>>;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
  support = await createCustomer(client.db, { role: "support" });
});
afterAll(() => client.close());
afterEach(() => vi.restoreAllMocks());

const freshEmail = () => `guest-${randomBytes(5).toString("hex")}@example.com`;
const humanAnswer = (api: ShopTestApi = client) => issueChallenge(api.config, new Date(Date.now() - 5_000)).token!;
const LINK = /\/contact\/([A-Za-z0-9_-]{22})\b/;

function contact(fields: Record<string, unknown>, options: { api?: ShopTestApi; ip?: string } = {}) {
  const api = options.api ?? client;
  return api.post(
    "/v1/contact",
    { message: "My code does not work", "g-recaptcha-response": humanAnswer(api), ...fields },
    { ip: options.ip },
  );
}

const mailsTo = (email: string, api: ShopTestApi = client) =>
  api.db.select().from(mailOutbox).where(eq(mailOutbox.to, email)).orderBy(desc(mailOutbox.createdAt));

/** Opens a guest ticket and answers its id and the token of the confirmation mail's link. */
async function openGuestTicket(email = freshEmail(), message = "Where is my order?\nI paid an hour ago.") {
  const opened = await contact({ email, message });
  expect(opened.status, opened.body.message).toBe(201);
  const [mail] = await mailsTo(email);
  const token = LINK.exec(mail.text)![1];
  return { email, ticketId: opened.body.payload.ticketId as string, token };
}

async function guestOrder(email: string) {
  const [order] = await client.db
    .insert(orders)
    .values({ email, status: "completed", subtotalCents: 500, priceCents: 500, paymentMethod: "sandbox" })
    .returning({ id: orders.id });
  return order.id;
}

describe("POST /v1/contact", () => {
  it("opens a guest ticket with no account and mails a link to the conversation; only the link's hash is stored", async () => {
    const email = freshEmail();
    const opened = await contact({ email: `  ${email} `, message: "Where is my order?\nI paid an hour ago." });
    expect(opened.status).toBe(201);
    expect(opened.body.message).toContain("mailed you a link");
    expect(JSON.stringify(opened.body)).not.toMatch(LINK);
    const ticketId = opened.body.payload.ticketId as string;

    const [ticket] = await client.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket).toMatchObject({
      userId: null,
      guestEmail: email,
      orderId: "",
      subject: "Where is my order?",
      status: "open",
      awaitingStaff: true,
    });
    const mails = await mailsTo(email);
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toContain("We received your message");
    const token = LINK.exec(mails[0].text)![1];
    expect(mails[0].text).toContain(`${client.config.publicUrl}/contact/${token}`);
    expect(mails[0].html).toContain(`/contact/${token}`);

    const links = await client.db.select().from(ticketLinks).where(eq(ticketLinks.ticketId, ticketId));
    expect(links).toEqual([expect.objectContaining({ tokenHash: ticketLinkHash(token) })]);
    expect(JSON.stringify(links)).not.toContain(token);

    const read = await client.get(`/v1/contact/${token}`);
    expect(read.status).toBe(200);
    expect(read.body.payload).toMatchObject({ _id: ticketId, subject: "Where is my order?", status: "open" });
    expect(read.body.payload.messages).toEqual([
      expect.objectContaining({ username: "You", message: "Where is my order?\nI paid an hour ago." }),
    ]);
    expect(read.headers.get("cache-control")).toBe("no-store");
  });

  it("takes an order of this email (or of its account), and refuses any other order id with one answer", async () => {
    const email = freshEmail();
    const own = await guestOrder(email);
    const withOrder = await contact({ email: email.toUpperCase(), orderId: own });
    expect(withOrder.status, withOrder.body.message).toBe(201);
    const [ticket] = await client.db.select().from(tickets).where(eq(tickets.id, withOrder.body.payload.ticketId));
    expect(ticket.orderId).toBe(own);

    const customer = await createCustomer(client.db);
    const [accountOrder] = await client.db
      .insert(orders)
      .values({
        userId: customer.id,
        email: "old-address@example.com",
        status: "completed",
        subtotalCents: 1,
        priceCents: 1,
        paymentMethod: "balance",
      })
      .returning({ id: orders.id });
    expect((await contact({ email: customer.email, orderId: accountOrder.id })).status).toBe(201);

    const someoneElses = await guestOrder(freshEmail());
    const stranger = freshEmail();
    for (const orderId of [someoneElses, newId(), "not-an-order", "x".repeat(64)]) {
      const refused = await contact({ email: stranger, orderId });
      expect(refused.status, orderId).toBe(400);
      expect(refused.body.message, orderId).toContain(CONTACT_ORDER_NOT_FOUND);
      expect(refused.body.errors, orderId).toEqual({ orderId: [CONTACT_ORDER_NOT_FOUND] });
    }
    expect(await client.db.select().from(tickets).where(eq(tickets.guestEmail, stranger))).toEqual([]);
    expect(await mailsTo(stranger)).toEqual([]);
  });

  it("refuses bad input and a missing or spent human check, opening nothing", async () => {
    const email = freshEmail();
    const noCheck = await client.post("/v1/contact", { email, message: "Hello" });
    expect(noCheck.status).toBe(400);
    expect(noCheck.body.errors).toEqual({ "g-recaptcha-response": [HUMAN_CHECK_FAILED] });
    const answer = humanAnswer();
    expect((await contact({ email, "g-recaptcha-response": answer })).status).toBe(201);
    expect((await contact({ email, "g-recaptcha-response": answer })).status).toBe(400);

    const bad = await contact({ email: "not an email", message: "  " });
    expect(bad.status).toBe(400);
    expect(Object.keys(bad.body.errors).sort()).toEqual(["email", "message"]);
    expect(await client.db.select().from(tickets).where(eq(tickets.guestEmail, email))).toHaveLength(1);
  });

  it("limits new tickets per email and per address (429 with Retry-After)", async () => {
    const strict = await createShopTestApi({ RATE_LIMIT_SCALE: "1" });
    try {
      const email = freshEmail();
      const perEmail = [];
      for (let attempt = 0; attempt < 6; attempt++) perEmail.push((await contact({ email }, { api: strict })).status);
      expect(perEmail).toEqual([201, 201, 201, 201, 201, 429]);
      expect(await mailsTo(email, strict)).toHaveLength(5);

      const ip = nextIp();
      const perAddress = [];
      for (let attempt = 0; attempt < 11; attempt++) {
        perAddress.push((await contact({ email: freshEmail() }, { api: strict, ip })).status);
      }
      expect(perAddress).toEqual([...Array(10).fill(201), 429]);
      const limited = await contact({ email: freshEmail() }, { api: strict, ip });
      expect(limited.status).toBe(429);
      expect(Number(limited.headers.get("retry-after"))).toBeGreaterThan(0);
    } finally {
      await strict.close();
    }
  });
});

describe("the conversation behind a mailed link", () => {
  it("answers an unknown, malformed or customer's ticket id with the same 404, for reading and writing", async () => {
    const customer = await createCustomer(client.db);
    const created = await client.post(
      "/v1/ticket/create",
      { subject: "Mine", message: "Hello" },
      { token: customer.token },
    );
    const customerTicketId = created.body.payload._id as string;
    for (const token of [newId(), "short", customerTicketId, "a".repeat(200)]) {
      const read = await client.get(`/v1/contact/${token}`);
      expect(read.status, token).toBe(404);
      expect(read.body.message, token).toBe(CONTACT_NOT_FOUND);
      const reply = await client.post(`/v1/contact/${token}/reply`, { message: "Hi" });
      expect(reply.status, token).toBe(404);
    }
    expect(
      await client.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, customerTicketId)),
    ).toHaveLength(1);
  });

  it("staff answer from the inbox (audited): the guest is mailed the answer with a new link, and replies through it", async () => {
    const { email, ticketId, token } = await openGuestTicket();

    const listed = await client.get(`/v1/admin/tickets?filter=waiting&search=${encodeURIComponent(email)}`, {
      token: support.token,
    });
    expect(listed.status).toBe(200);
    expect(listed.body.payload.records).toEqual([
      expect.objectContaining({ _id: ticketId, customer: { _id: null, email, guest: true }, waiting: true }),
    ]);

    const answered = await client.post(
      `/v1/admin/tickets/${ticketId}/reply`,
      { message: "Your order is on its way." },
      { token: support.token },
    );
    expect(answered.status, answered.body.message).toBe(200);
    expect(answered.body.payload.customer).toEqual({ _id: null, email, guest: true });
    expect(answered.body.payload.messages.map((m: { author: string }) => m.author)).toEqual(["Guest", "Admin"]);
    const [audit] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, ticketId), eq(auditLog.action, "ticket.reply")));
    expect(audit).toMatchObject({ actorUserId: support.id, objectType: "ticket" });

    const [answerMail] = await mailsTo(email);
    expect(answerMail.subject).toBe("Support replied: Where is my order?");
    expect(answerMail.text).toContain("Your order is on its way.");
    const newToken = LINK.exec(answerMail.text)![1];
    expect(newToken).not.toBe(token);

    for (const link of [token, newToken]) {
      const read = await client.get(`/v1/contact/${link}`);
      expect(read.status).toBe(200);
      expect(read.body.payload.messages.map((m: { username: string }) => m.username)).toEqual(["You", "Admin"]);
    }

    const replied = await client.post(`/v1/contact/${newToken}/reply`, { message: "  Thanks, it arrived!  " });
    expect(replied.status, replied.body.message).toBe(200);
    expect(replied.body.payload.messages.at(-1)).toMatchObject({ username: "You", message: "Thanks, it arrived!" });
    const [ticket] = await client.db.select().from(tickets).where(eq(tickets.id, ticketId));
    expect(ticket.awaitingStaff).toBe(true);

    const empty = await client.post(`/v1/contact/${token}/reply`, { message: " " });
    expect(empty.status).toBe(400);
    expect(Object.keys(empty.body.errors)).toEqual(["message"]);
  });

  it("a closed conversation takes no message from the guest or from staff", async () => {
    const { ticketId, token } = await openGuestTicket();
    const closed = await client.post(
      `/v1/admin/tickets/${ticketId}/status`,
      { status: "closed" },
      { token: support.token },
    );
    expect(closed.status, closed.body.message).toBe(200);
    const read = await client.get(`/v1/contact/${token}`);
    expect(read.body.payload.status).toBe("closed");
    const refused = await client.post(`/v1/contact/${token}/reply`, { message: "One more thing" });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe(CONTACT_CLOSED);
    const staff = await client.post(
      `/v1/admin/tickets/${ticketId}/reply`,
      { message: "Late" },
      { token: support.token },
    );
    expect(staff.status).toBe(409);
    expect(await client.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId))).toHaveLength(1);
  });

  it("limits a conversation's messages per address and per conversation", async () => {
    const strict = await createShopTestApi({ RATE_LIMIT_SCALE: "1" });
    try {
      const email = freshEmail();
      expect((await contact({ email }, { api: strict })).status).toBe(201);
      const token = LINK.exec((await mailsTo(email, strict))[0].text)![1];
      const statuses = [];
      for (let attempt = 0; attempt < 11; attempt++) {
        statuses.push((await strict.post(`/v1/contact/${token}/reply`, { message: `note ${attempt}` })).status);
      }
      expect(statuses).toEqual([...Array(10).fill(200), 429]);
    } finally {
      await strict.close();
    }
  });
});

describe("logs", () => {
  it("never carry the guest's email, message or link token", async () => {
    const written: string[] = [];
    for (const stream of ["stdout", "stderr"] as const) {
      vi.spyOn(process[stream], "write").mockImplementation((chunk: string | Uint8Array) => {
        written.push(String(chunk));
        return true;
      });
    }
    const api = createApi({ db: client.db, config: client.config, logger: createLogger("debug") });
    const call = async (method: string, path: string, body?: unknown) => {
      const response = await api.request(
        path,
        {
          method,
          headers: { "content-type": "application/json", authorization: `Bearer ${support.token}` },
          body: body === undefined ? undefined : JSON.stringify(body),
        },
        { clientIp: nextIp() },
      );
      return { status: response.status, body: await response.json() };
    };
    const email = `private.guest.${randomBytes(4).toString("hex")}@example.com`;
    const opened = await call("POST", "/v1/contact", {
      email,
      message: "Secret words of the guest",
      "g-recaptcha-response": humanAnswer(),
    });
    expect(opened.status).toBe(201);
    const ticketId = opened.body.payload.ticketId as string;
    const token = LINK.exec((await mailsTo(email))[0].text)![1];
    expect((await call("GET", `/v1/contact/${token}`)).status).toBe(200);
    expect((await call("POST", `/v1/contact/${token}/reply`, { message: "More private words" })).status).toBe(200);
    expect((await call("POST", `/v1/admin/tickets/${ticketId}/reply`, { message: "Staff words" })).status).toBe(200);
    expect((await call("GET", `/v1/contact/${newId()}`)).status).toBe(404);
    vi.restoreAllMocks();

    const everything = written.join("");
    expect(everything).toContain("guest ticket opened");
    expect(everything).toContain("/v1/contact/[id]");
    for (const secret of [email, "private.guest", "Secret words", "More private words", "Staff words", token]) {
      expect(everything).not.toContain(secret);
    }
  });
});
