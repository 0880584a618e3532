import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OPEN_TICKETS_LIMIT } from "../../contract/ticket";
import { newId } from "../../api/db/ids";
import { mailOutbox, orders, ticketMessages, tickets } from "../../api/db/schema";
import { addStaffReply } from "../../api/services/support/tickets";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

async function orderOf(userId: string, email: string) {
  const [order] = await client.db
    .insert(orders)
    .values({ userId, email, status: "completed", subtotalCents: 500, priceCents: 500, paymentMethod: "balance" })
    .returning({ id: orders.id });
  return order.id;
}

async function openOne(token: string, fields: Record<string, unknown> = {}) {
  const answer = await client.post(
    "/v1/ticket/create",
    { orderId: "", subject: "Login does not work", message: "Hello", ...fields },
    { token },
  );
  expect(answer.status).toBe(201);
  return answer.body.payload._id as string;
}

describe("/v1/ticket", () => {
  it("opens a ticket on the customer's order, converses with staff as Admin, closes and reopens", async () => {
    const customer = await createCustomer(client.db);
    const orderId = await orderOf(customer.id, customer.email);
    const created = await client.post(
      "/v1/ticket/create",
      { orderId, subject: "  Netflix plan stopped  ", message: "It asks for a code" },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    expect(created.body.message).toContain("24 hours");
    const ticket = created.body.payload;
    expect(ticket).toMatchObject({ orderId, subject: "Netflix plan stopped", status: "open" });
    expect(ticket.messages).toHaveLength(1);
    expect(ticket.messages[0]).toMatchObject({ message: "It asks for a code" });
    expect(ticket.messages[0].username).toMatch(/^c[0-9a-f]+$/);

    await addStaffReply(client.deps, { ticketId: ticket._id, staffUserId: null, message: "Try again now" });
    const mails = await client.db.select().from(mailOutbox).where(eq(mailOutbox.to, customer.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain(`/tickets/${ticket._id}`);
    expect(mails[0].text).not.toContain("Try again now");

    const sent = await client.post(
      "/v1/ticket/sendMessage",
      { ticketId: ticket._id, message: "Works, thanks" },
      { token: customer.token },
    );
    expect(sent.status).toBe(200);
    expect(sent.body.payload.messages.map((m: { username: string }) => m.username)).toEqual([
      ticket.messages[0].username,
      "Admin",
      ticket.messages[0].username,
    ]);

    const closed = await client.post("/v1/ticket/close", { ticketId: ticket._id }, { token: customer.token });
    expect(closed.body.payload.status).toBe("closed");
    const refused = await client.post(
      "/v1/ticket/sendMessage",
      { ticketId: ticket._id, message: "one more" },
      { token: customer.token },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({ success: false, message: "This ticket is closed. Reopen it to write again." });
    await expect(
      addStaffReply(client.deps, { ticketId: ticket._id, staffUserId: null, message: "late" }),
    ).rejects.toMatchObject({ status: 409 });

    const reopened = await client.post("/v1/ticket/open", { ticketId: ticket._id }, { token: customer.token });
    expect(reopened.body.payload.status).toBe("open");
    const again = await client.post(
      "/v1/ticket/sendMessage",
      { ticketId: ticket._id, message: "It stopped again" },
      { token: customer.token },
    );
    expect(again.status).toBe(200);
    expect(again.body.payload.messages).toHaveLength(4);

    const one = await client.get(`/v1/ticket/read/${ticket._id}`, { token: customer.token });
    expect(one.status).toBe(200);
    expect(one.body.payload.messages).toHaveLength(4);
  });

  it("marks a ticket as waiting for staff while the customer spoke last", async () => {
    const customer = await createCustomer(client.db);
    const ticketId = await openOne(customer.token);
    const awaiting = async () =>
      (
        await client.db.select({ awaitingStaff: tickets.awaitingStaff }).from(tickets).where(eq(tickets.id, ticketId))
      )[0].awaitingStaff;
    expect(await awaiting()).toBe(true);
    await addStaffReply(client.deps, { ticketId, staffUserId: null, message: "Which device?" });
    expect(await awaiting()).toBe(false);
    const sent = await client.post(
      "/v1/ticket/sendMessage",
      { ticketId, message: "A phone" },
      { token: customer.token },
    );
    expect(sent.status).toBe(200);
    expect(await awaiting()).toBe(true);
  });

  it("answers another customer 404 for every call on a foreign ticket, and changes nothing", async () => {
    const owner = await createCustomer(client.db);
    const stranger = await createCustomer(client.db);
    const ticketId = await openOne(owner.token);
    const token = stranger.token;
    const answers = [
      await client.get(`/v1/ticket/read/${ticketId}`, { token }),
      await client.post("/v1/ticket/sendMessage", { ticketId, message: "mine now" }, { token }),
      await client.post("/v1/ticket/close", { ticketId }, { token }),
      await client.post("/v1/ticket/open", { ticketId }, { token }),
    ];
    for (const answer of answers) expect(answer).toMatchObject({ status: 404, body: { message: "Ticket not found" } });
    // An unknown and a malformed id answer the same.
    expect((await client.post("/v1/ticket/close", { ticketId: newId() }, { token })).status).toBe(404);
    expect((await client.post("/v1/ticket/close", { ticketId: "x'; drop" }, { token })).status).toBe(404);
    expect((await client.get("/v1/ticket/read/nope", { token })).status).toBe(404);

    const list = await client.post("/v1/ticket/read", { page: 1, search: "", sortBy: "updatedAt" }, { token });
    expect(list.body.payload.records).toEqual([]);
    const messages = await client.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId));
    expect(messages).toHaveLength(1);
    const ownView = await client.get(`/v1/ticket/read/${ticketId}`, { token: owner.token });
    expect(ownView.body.payload.status).toBe("open");
  });

  it("refuses an order that is not the customer's, and takes an empty one as a general question", async () => {
    const customer = await createCustomer(client.db);
    const other = await createCustomer(client.db);
    const foreignOrder = await orderOf(other.id, other.email);
    const refused = await client.post(
      "/v1/ticket/create",
      { orderId: foreignOrder, subject: "Hi", message: "Hi" },
      { token: customer.token },
    );
    expect(refused).toMatchObject({ status: 400, body: { errors: { orderId: ["Choose one of your orders"] } } });
    const general = await client.post(
      "/v1/ticket/create",
      { subject: "A question", message: "Do you sell gift cards?" },
      { token: customer.token },
    );
    expect(general.status).toBe(201);
    expect(general.body.payload.orderId).toBe("");
  });

  it("answers 400 per missing field and 401 without a token", async () => {
    const customer = await createCustomer(client.db);
    const empty = await client.post("/v1/ticket/create", { subject: " ", message: "" }, { token: customer.token });
    expect(empty.status).toBe(400);
    expect(empty.body.errors).toEqual({ subject: ["Subject is required"], message: ["Message is required"] });
    const missing = await client.post("/v1/ticket/create", {}, { token: customer.token });
    expect(Object.keys(missing.body.errors).sort()).toEqual(["message", "subject"]);
    const noMessage = await client.post("/v1/ticket/sendMessage", {}, { token: customer.token });
    expect(noMessage.status).toBe(400);
    expect(Object.keys(noMessage.body.errors).sort()).toEqual(["message", "ticketId"]);
    const tooLong = await client.post(
      "/v1/ticket/create",
      { subject: "s".repeat(121), message: "m".repeat(2001) },
      { token: customer.token },
    );
    expect(Object.keys(tooLong.body.errors).sort()).toEqual(["message", "subject"]);
    expect((await client.post("/v1/ticket/read", {})).status).toBe(401);
    expect((await client.post("/v1/ticket/create", { subject: "a", message: "b" })).status).toBe(401);
  });

  it("stores a message as given: markup comes back as the same text", async () => {
    const customer = await createCustomer(client.db);
    const script = `<script>alert("x")</script> & <b>bold</b>`;
    const ticketId = await openOne(customer.token, { subject: script, message: script });
    const read = await client.get(`/v1/ticket/read/${ticketId}`, { token: customer.token });
    expect(read.body.payload.subject).toBe(script);
    expect(read.body.payload.messages[0].message).toBe(script);
  });

  it("lists the customer's tickets last updated first, searches subjects and pages by 10", async () => {
    const customer = await createCustomer(client.db);
    for (let index = 1; index <= 12; index++) {
      const ticketId = await openOne(customer.token, { subject: `Question ${index}` });
      // Only 5 may be open at once.
      await client.post("/v1/ticket/close", { ticketId }, { token: customer.token });
    }
    const first = await client.post(
      "/v1/ticket/read",
      { page: 1, search: "", sortBy: "updatedAt" },
      { token: customer.token },
    );
    expect(first.body.payload.records).toHaveLength(10);
    expect(first.body.payload.records[0].subject).toBe("Question 12");
    expect(first.body.payload.pager).toEqual({ page: 1, previous: null, next: 2, total: 12, pages: 2 });
    const second = await client.post("/v1/ticket/read", { page: 2 }, { token: customer.token });
    expect(second.body.payload.records.map((t: { subject: string }) => t.subject)).toEqual([
      "Question 2",
      "Question 1",
    ]);
    const found = await client.post("/v1/ticket/read", { search: "question 1" }, { token: customer.token });
    expect(found.body.payload.records.map((t: { subject: string }) => t.subject)).toEqual([
      "Question 12",
      "Question 11",
      "Question 10",
      "Question 1",
    ]);
    const wildcard = await client.post("/v1/ticket/read", { search: "%" }, { token: customer.token });
    expect(wildcard.body.payload.records).toEqual([]);
  });

  it(`keeps at most ${OPEN_TICKETS_LIMIT} tickets open, counting reopened ones`, async () => {
    const customer = await createCustomer(client.db);
    const ids: string[] = [];
    for (let index = 0; index < OPEN_TICKETS_LIMIT; index++) ids.push(await openOne(customer.token));
    const sixth = await client.post(
      "/v1/ticket/create",
      { subject: "One more", message: "Hi" },
      { token: customer.token },
    );
    expect(sixth.status).toBe(409);
    await client.post("/v1/ticket/close", { ticketId: ids[0] }, { token: customer.token });
    await openOne(customer.token);
    expect((await client.post("/v1/ticket/open", { ticketId: ids[0] }, { token: customer.token })).status).toBe(409);
  });
});

describe("/v1/ticket rate limit", () => {
  it("answers 429 with Retry-After past 10 messages a minute", async () => {
    const limited = await createShopTestApi();
    try {
      const customer = await createCustomer(limited.db);
      const created = await limited.post(
        "/v1/ticket/create",
        { subject: "Hi", message: "first" },
        { token: customer.token },
      );
      const ticketId = created.body.payload._id;
      const statuses: number[] = [];
      for (let index = 0; index < 10; index++) {
        const answer = await limited.post(
          "/v1/ticket/sendMessage",
          { ticketId, message: `n${index}` },
          { token: customer.token },
        );
        statuses.push(answer.status);
        if (answer.status === 429) expect(Number(answer.headers.get("retry-after"))).toBeGreaterThan(0);
      }
      expect(statuses.filter((status) => status === 200)).toHaveLength(9);
      expect(statuses.at(-1)).toBe(429);
    } finally {
      await limited.close();
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("/v1/ticket under concurrency (PostgreSQL)", () => {
  it("lets only one of several simultaneous opens take the last open-ticket place", async () => {
    const customer = await createCustomer(client.db);
    for (let index = 1; index < OPEN_TICKETS_LIMIT; index++) await openOne(customer.token);
    const answers = await Promise.all(
      Array.from({ length: 4 }, () =>
        client.post("/v1/ticket/create", { subject: "Race", message: "Hi" }, { token: customer.token }),
      ),
    );
    expect(answers.map((answer) => answer.status).sort()).toEqual([201, 409, 409, 409]);
  });
});
