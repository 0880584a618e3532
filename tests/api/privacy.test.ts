import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DELETED_CUSTOMER, PRIVACY_MESSAGES } from "../../contract/privacy";
import {
  auditLog,
  balanceLedger,
  coupons,
  feedback,
  knownDevices,
  mailOutbox,
  orderProducts,
  orders,
  requests,
  sessions,
  stockCredentials,
  ticketMessages,
  tickets,
  users,
} from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { createSession, userForToken } from "../../api/services/accounts/sessions";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * A customer's own data (issue 29, ADR 044): the export (complete, only theirs, no secret), deleting the account
 * (by the customer with the password, by owners and managers with a reason), and a sign-in racing a deletion.
 * PGlite and, with TEST_DATABASE_URL, PostgreSQL.
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

const PASSWORD = "correct horse battery staple";

type Shopper = { id: string; username: string; email: string; token: string; deviceToken: string };

/**
 * A customer registered and signed in through /v1, with a delivered order, a ticket with an answer, a replacement
 * request, feedback, a slots prize, a balance left over, and a mail sent to them.
 */
async function activeShopper(prefix = "shopper"): Promise<Shopper & { orderId: string; credential: string }> {
  const username = `${prefix}${randomBytes(5).toString("hex")}`;
  const email = `${username}@example.com`;
  const registered = await client.post("/v1/user/register", {
    username,
    email,
    password: PASSWORD,
    password2: PASSWORD,
  });
  expect(registered.status).toBe(201);
  const signedIn = await client.post("/v1/user/login", { username, password: PASSWORD });
  expect(signedIn.status).toBe(200);
  const { token, deviceToken } = signedIn.body.payload as { token: string; deviceToken: string };
  const [row] = await client.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  await client.db.update(users).set({ balanceCents: 1_250 }).where(eq(users.id, row.id));

  const listing = await createListing(client.db, { stock: 2, priceCents: 500 });
  await addToCart(client, token, listing.optionId, 1);
  const created = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token });
  expect(created.status).toBe(201);
  const orderId = created.body.payload.orderId as string;
  const order = await client.get(`/v1/order/read/${orderId}`);
  const credential = order.body.payload.products[0].creds[0] as string;
  const [line] = await client.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId));

  const ticket = await client.post(
    "/v1/ticket/create",
    { orderId, subject: "About my order", message: "Hello, the account stopped working" },
    { token },
  );
  expect(ticket.status).toBe(201);
  await client.db
    .insert(ticketMessages)
    .values({ ticketId: ticket.body.payload._id, fromStaff: true, authorUserId: owner.id, message: "We are on it" });
  await client.db.insert(requests).values({
    kind: "other",
    userId: row.id,
    orderId,
    orderProductId: line.id,
    message: "Please extend it",
  });
  await client.db.insert(feedback).values({
    userId: row.id,
    orderProductId: line.id,
    productId: listing.productId,
    stars: 5,
    message: "Works great",
  });
  await client.db.insert(coupons).values({
    code: `SLOTS-${randomBytes(4).toString("hex")}`,
    kind: "percent",
    amount: 10,
    userId: row.id,
    source: "slots",
  });
  await client.db.insert(mailOutbox).values({ to: email, subject: "Your order", text: "Thanks", status: "sent" });
  return { id: row.id, username, email, token, deviceToken, orderId, credential };
}

const exportOf = (token: string) => client.get("/v1/user/export", { token });

describe("GET /v1/user/export", () => {
  it("needs a token", async () => {
    expect((await client.get("/v1/user/export")).status).toBe(401);
  });

  it("answers everything the store holds about the customer as a download, nothing of anyone else, no secret", async () => {
    const shopper = await activeShopper();
    const other = await activeShopper("other");
    const answer = await exportOf(shopper.token);
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(
      /^attachment; filename="store-data-\d{4}-\d{2}-\d{2}\.json"$/,
    );
    const data = answer.body.payload;
    expect(data.profile).toEqual({
      _id: shopper.id,
      username: shopper.username,
      email: shopper.email,
      balance: 7.5,
      created: expect.any(String),
    });
    expect(data.orders).toHaveLength(1);
    expect(data.orders[0]).toMatchObject({ _id: shopper.orderId, status: "completed", price: 5, email: shopper.email });
    const [credential] = data.orders[0].products[0].credentials;
    expect(`${credential.username}:${credential.password}`).toBe(shopper.credential);
    expect(data.tickets).toHaveLength(1);
    expect(data.tickets[0].messages.map((message: { from: string }) => message.from)).toEqual(["you", "Admin"]);
    expect(data.requests).toMatchObject([{ kind: "other", message: "Please extend it", orderId: shopper.orderId }]);
    expect(data.feedback).toMatchObject([{ stars: 5, message: "Works great" }]);
    expect(data.ledger).toMatchObject([{ type: "out", amount: -5, balanceAfter: 7.5, orderId: shopper.orderId }]);
    expect(data.coupons).toMatchObject([{ source: "slots", kind: "percent", amount: 10, used: false }]);
    // The registration's session and the sign-in's, the latter marked as the one asking; the one browser.
    expect(data.sessions).toHaveLength(2);
    expect(data.sessions.filter((session: { current: boolean }) => session.current)).toHaveLength(1);
    expect(data.devices).toHaveLength(1);

    const text = JSON.stringify(answer.body);
    for (const theirs of [other.email, other.username, other.orderId, other.id, other.credential]) {
      expect(text).not.toContain(theirs);
    }
    const [account] = await client.db.select().from(users).where(eq(users.id, shopper.id));
    const sessionHashes = await client.db
      .select({ hash: sessions.tokenHash })
      .from(sessions)
      .where(eq(sessions.userId, shopper.id));
    const [device] = await client.db.select().from(knownDevices).where(eq(knownDevices.userId, shopper.id));
    for (const secret of [
      shopper.token,
      shopper.deviceToken,
      account.passwordHash,
      device.tokenHash,
      ...sessionHashes.map((row) => row.hash),
    ]) {
      expect(text).not.toContain(secret);
    }
    expect(text).not.toMatch(/"[A-Za-z]*(token|hash|Hash|Token)[A-Za-z]*":/);
  });
});

/** The rows of a raw query: postgres.js answers an array, PGlite an object with `rows`. */
function rowsOf<Row>(result: unknown): Row[] {
  return (Array.isArray(result) ? result : (result as { rows: Row[] }).rows) as Row[];
}

/** Every text or JSON column of every table that holds `value` (letter case ignored), as `table.column`. */
async function columnsHolding(value: string): Promise<string[]> {
  const columns = rowsOf<{ table_name: string; column_name: string }>(
    await client.db.execute(sql`
      select table_name, column_name from information_schema.columns
      where table_schema = 'public' and data_type in ('text', 'jsonb', 'character varying')
    `),
  );
  const found: string[] = [];
  for (const { table_name: table, column_name: column } of columns) {
    const [{ n }] = rowsOf<{ n: number }>(
      await client.db.execute(
        sql`select count(*)::int as n from ${sql.identifier(table)} where position(lower(${value}) in lower(${sql.identifier(column)}::text)) > 0`,
      ),
    );
    if (Number(n) > 0) found.push(`${table}.${column}`);
  }
  return found;
}

describe("POST /v1/user/delete", () => {
  it("refuses a wrong password with 400 and changes nothing", async () => {
    const shopper = await activeShopper();
    const [before] = await client.db.select().from(users).where(eq(users.id, shopper.id));
    const wrong = await client.post("/v1/user/delete", { password: "not my password" }, { token: shopper.token });
    expect(wrong.status).toBe(400);
    expect(wrong.body.errors).toEqual({ password: [PRIVACY_MESSAGES.wrongPassword] });
    expect((await client.post("/v1/user/delete", {}, { token: shopper.token })).status).toBe(400);
    expect((await client.post("/v1/user/delete", { password: PASSWORD })).status).toBe(401);
    const [after] = await client.db.select().from(users).where(eq(users.id, shopper.id));
    expect(after).toEqual(before);
    expect((await client.get("/v1/user/access", { token: shopper.token })).status).toBe(200);
  });

  it("removes the person: sessions end, no personal column holds the address, orders stay, the balance is forfeited", async () => {
    const shopper = await activeShopper();
    const [ticket] = await client.db.select().from(tickets).where(eq(tickets.userId, shopper.id));
    // A guest ticket from the same address is the same person's.
    await client.db.insert(tickets).values({ guestEmail: shopper.email.toUpperCase(), orderId: "", subject: "Hi" });
    const deleted = await client.post("/v1/user/delete", { password: PASSWORD }, { token: shopper.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body).toMatchObject({
      message: PRIVACY_MESSAGES.deleted,
      payload: { _id: shopper.id, forfeited: 7.5 },
    });

    expect((await client.get("/v1/user/access", { token: shopper.token })).status).toBe(401);
    expect(await client.db.select().from(sessions).where(eq(sessions.userId, shopper.id))).toEqual([]);
    for (const name of [shopper.username, shopper.email]) {
      expect((await client.post("/v1/user/login", { username: name, password: PASSWORD })).status).toBe(401);
    }
    expect(await columnsHolding(shopper.email)).toEqual([]);
    expect(await columnsHolding(shopper.username)).toEqual([]);
    const [tombstone] = await client.db.select().from(users).where(eq(users.id, shopper.id));
    expect(tombstone).toMatchObject({ balanceCents: 0, passwordHash: "", deletedAt: expect.any(Date) });
    expect(tombstone.username).toMatch(/^deleted-[0-9a-f]{24}$/);

    // The books keep the order and the money; the ledger says where the balance went.
    const [order] = await client.db.select().from(orders).where(eq(orders.id, shopper.orderId));
    expect(order).toMatchObject({ status: "completed", priceCents: 500, email: "", clientIp: null });
    const [forfeit] = await client.db
      .select()
      .from(balanceLedger)
      .where(eq(balanceLedger.userId, shopper.id))
      .orderBy(desc(balanceLedger.createdAt))
      .limit(1);
    expect(forfeit).toMatchObject({ type: "out", amountCents: 750, balanceAfterCents: 0 });
    expect(forfeit.note).toMatch(/forfeited/i);

    // Feedback and messages stay, from 'Deleted customer' in staff's eyes.
    expect(await client.db.select().from(feedback).where(eq(feedback.userId, shopper.id))).toHaveLength(1);
    const staffView = await client.get(`/v1/admin/tickets/${ticket.id}`, { token: owner.token });
    expect(staffView.status).toBe(200);
    expect(staffView.body.payload.customer.email).toBe(DELETED_CUSTOMER);
    expect(staffView.body.payload.messages[0]).toMatchObject({ author: DELETED_CUSTOMER, message: expect.any(String) });

    // The address is free again.
    const again = await client.post("/v1/user/register", {
      username: shopper.username,
      email: shopper.email,
      password: PASSWORD,
      password2: PASSWORD,
    });
    expect(again.status).toBe(201);
  });

  it("is not for staff accounts", async () => {
    const answer = await client.post("/v1/user/delete", { password: PASSWORD }, { token: manager.token });
    expect(answer.status).toBe(403);
    expect(answer.body.message).toBe(PRIVACY_MESSAGES.staffAccount);
  });

  it("a sign-in that checked the password before the deletion gets a token that never works", async () => {
    const shopper = await activeShopper();
    expect((await client.post("/v1/user/delete", { password: PASSWORD }, { token: shopper.token })).status).toBe(200);
    // What login does once the password matched: the session is written after the deletion committed.
    const late = await createSession(client.db, shopper.id);
    expect(await userForToken(client.db, late)).toBeUndefined();
    expect((await client.get("/v1/user/access", { token: late })).status).toBe(401);
  });

  it("a concurrent sign-in cannot resurrect the session (a race on PostgreSQL)", { timeout: 60_000 }, async () => {
    for (let round = 0; round < 6; round++) {
      const shopper = await activeShopper("racer");
      const [signIn, deletion] = await Promise.all([
        client.post("/v1/user/login", { username: shopper.username, password: PASSWORD }),
        client.post("/v1/user/delete", { password: PASSWORD }, { token: shopper.token }),
      ]);
      expect(deletion.status).toBe(200);
      if (signIn.status === 200) {
        expect((await client.get("/v1/user/access", { token: signIn.body.payload.token })).status).toBe(401);
      } else {
        expect(signIn.status).toBe(401);
      }
      const live = await client.db
        .select({ id: sessions.id })
        .from(sessions)
        .innerJoin(users, eq(users.id, sessions.userId))
        .where(and(eq(sessions.userId, shopper.id), sql`${users.deletedAt} is null`));
      expect(live).toEqual([]);
    }
  });
});

describe("staff answering a customer's request", () => {
  it("support and customers are refused; owners and managers export, audited without the customer's data", async () => {
    const shopper = await activeShopper();
    const path = `/v1/admin/customers/${shopper.id}/export`;
    expect((await client.get(path, { token: support.token })).status).toBe(403);
    expect((await client.get(path, { token: shopper.token })).status).toBe(403);
    expect((await client.get(path)).status).toBe(401);
    expect((await client.get("/v1/admin/customers/not-an-id/export", { token: manager.token })).status).toBe(404);
    const answer = await client.get(path, { token: manager.token });
    expect(answer.status).toBe(200);
    expect(answer.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(answer.body.payload.profile).toMatchObject({ _id: shopper.id, email: shopper.email });
    expect(answer.body.payload.orders).toHaveLength(1);
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, shopper.id), eq(auditLog.action, "customer.export")));
    expect(entry.actorUserId).toBe(manager.id);
    expect(JSON.stringify(entry)).not.toContain(shopper.email);
    expect(JSON.stringify(entry)).not.toContain(shopper.username);
  });

  it("holds no credential secret: delivered, replaced and delivered-by-hand ones, for managers and owners (ADR 054)", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 2_000 });
    const secret = (what: string) => `${what}-${randomBytes(6).toString("hex")}`;
    // An auto line of two, one of which is replaced from stock, and a manual line staff deliver by pasting.
    const auto = await createListing(client.db, { stock: 0 });
    const stock = Array.from({ length: 3 }, () => ({ username: secret("login"), password: secret("pw") }));
    await client.db
      .insert(stockCredentials)
      .values(stock.map((credential) => ({ optionId: auto.optionId, ...credential })));
    await addToCart(client, customer.token, auto.optionId, 2);
    const bought = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(bought.status).toBe(201);
    const replaced = await client.post(
      "/v1/request/createReplacement",
      {
        orderId: bought.body.payload.orderId,
        productId: auto.productId,
        productOptionId: auto.optionId,
        index: 0,
        message: "The password is refused",
        "g-recaptcha-response": issueChallenge(client.config, new Date(Date.now() - 5_000)).token,
      },
      { token: customer.token },
    );
    expect(replaced.status).toBe(201);
    const manual = await createListing(client.db, { fulfilMode: "manual" });
    await addToCart(client, customer.token, manual.optionId, 1);
    const waiting = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
    expect(waiting.status).toBe(201);
    const manualOrderId = waiting.body.payload.orderId as string;
    const [manualLine] = await client.db.select().from(orderProducts).where(eq(orderProducts.orderId, manualOrderId));
    const pasted = { username: secret("handlogin"), password: secret("handpw") };
    const delivered = await client.post(
      `/v1/admin/orders/${manualOrderId}/deliver`,
      { lineId: manualLine.id, credentials: `${pasted.username}:${pasted.password}` },
      { token: owner.token },
    );
    expect(delivered.status).toBe(200);
    const secrets = [...stock, pasted].flatMap((credential) => [credential.username, credential.password]);

    // The customer's own export has all four: two bought, the replaced one and its replacement, and the pasted one.
    const own = JSON.stringify((await exportOf(customer.token)).body.payload);
    for (const word of secrets) expect(own).toContain(word);

    for (const staff of [manager, owner]) {
      const answer = await client.get(`/v1/admin/customers/${customer.id}/export`, { token: staff.token });
      expect(answer.status).toBe(200);
      const text = JSON.stringify(answer.body.payload);
      for (const word of secrets) expect(text).not.toContain(word);
      // Still the whole record of what was delivered and when: dates, warranty, replacement, but no account.
      const credentials = (answer.body.payload.orders as { products: { credentials: object[] }[] }[]).flatMap((order) =>
        order.products.flatMap((line) => line.credentials),
      );
      expect(credentials).toHaveLength(4);
      for (const credential of credentials) {
        expect(Object.keys(credential).sort()).toEqual(["deliveredAt", "replacedAt", "warrantyEndsAt"]);
      }
      expect(credentials.filter((credential) => "replacedAt" in credential && credential.replacedAt)).toHaveLength(1);
    }
  });

  it("owners and managers delete with a reason, audited without personal data; never themselves nor staff", async () => {
    const shopper = await activeShopper();
    const path = `/v1/admin/customers/${shopper.id}/delete`;
    const reason = "Asked by mail on 2026-11-20";
    expect((await client.post(path, { reason }, { token: support.token })).status).toBe(403);
    expect((await client.post(path, {}, { token: owner.token })).status).toBe(400);
    const own = await client.post(`/v1/admin/customers/${owner.id}/delete`, { reason }, { token: owner.token });
    expect(own.status).toBe(403);
    expect(own.body.message).toBe(PRIVACY_MESSAGES.ownAccount);
    const staff = await client.post(`/v1/admin/customers/${manager.id}/delete`, { reason }, { token: owner.token });
    expect(staff.status).toBe(403);
    expect(staff.body.message).toBe(PRIVACY_MESSAGES.staffAccount);

    const deleted = await client.post(path, { reason }, { token: owner.token });
    expect(deleted.status).toBe(200);
    expect(deleted.body.payload).toMatchObject({ _id: shopper.id, forfeited: 7.5 });
    expect((await client.get("/v1/user/access", { token: shopper.token })).status).toBe(401);
    expect(await columnsHolding(shopper.email)).toEqual([]);
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, shopper.id), eq(auditLog.action, "customer.delete")));
    expect(entry).toMatchObject({ actorUserId: owner.id, objectLabel: DELETED_CUSTOMER });
    expect(entry.changes).toMatchObject({ after: { reason } });
    expect((await client.post(path, { reason }, { token: manager.token })).status).toBe(409);
    expect((await client.get(`/v1/admin/customers/${shopper.id}/export`, { token: manager.token })).status).toBe(404);
  });

  it("a deleted customer's name and address leave earlier audit entries; what was done stays", async () => {
    const shopper = await activeShopper();
    const adjusted = await client.post(
      `/v1/admin/customers/${shopper.id}/balance`,
      { direction: "credit", amount: 1, reason: `goodwill for ${shopper.username}` },
      { token: owner.token },
    );
    expect(adjusted.status).toBe(200);
    expect(await columnsHolding(shopper.email)).toContain("audit_log.object_label");
    expect((await client.post("/v1/user/delete", { password: PASSWORD }, { token: shopper.token })).status).toBe(200);
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.objectId, shopper.id), eq(auditLog.action, "customer.balance.credit")));
    expect(entry).toMatchObject({ actorUserId: owner.id, objectLabel: DELETED_CUSTOMER });
    expect(JSON.stringify(entry.changes)).toContain("goodwill for [deleted]");
    // Still append-only for everything else.
    await expect(client.db.execute(sql`update audit_log set action = 'x' where id = ${entry.id}`)).rejects.toThrow();
  });
});
