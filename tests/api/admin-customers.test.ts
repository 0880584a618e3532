import { randomBytes } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ACCOUNT_BLOCKED, EMAIL_REFUSED } from "../../contract/admin-customers";
import {
  auditLog,
  balanceLedger,
  cartItems,
  carts,
  emailBlocklist,
  mailOutbox,
  orders,
  payments,
  redeemKeys,
  tickets,
  users,
} from "../../api/db/schema";
import { newId } from "../../api/db/ids";
import { issueChallenge } from "../../api/services/guards/human-check";
import { CUSTOMER_MESSAGES } from "../../api/services/customers/admin";
import { generateKeys } from "../../api/services/keys/redeem-keys";
import { createSession } from "../../api/services/accounts/sessions";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * The back office's customers (ADR 026): the list and a customer's orders, tickets and ledger; balance
 * adjustments (with the race on PostgreSQL); blocking; the checkout blocklist. PGlite and PostgreSQL.
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
const freshName = (prefix: string) => `${prefix}${randomBytes(5).toString("hex")}`;
const humanAnswer = () => issueChallenge(client.config, new Date(Date.now() - 5_000)).token!;

/** A customer registered through /v1 (a real password, so sign-in can be tried). */
async function registered(prefix = "shopper") {
  const username = freshName(prefix);
  const email = `${username}@example.com`;
  const answer = await client.post("/v1/user/register", { username, email, password: PASSWORD, password2: PASSWORD });
  expect(answer.status).toBe(201);
  const [row] = await client.db.select({ id: users.id }).from(users).where(eq(users.email, email));
  return { id: row.id, username, email, token: answer.body.payload.token as string };
}

const signIn = (username: string) => client.post("/v1/user/login", { username, password: PASSWORD });

async function balanceOf(userId: string) {
  const [row] = await client.db.select({ cents: users.balanceCents }).from(users).where(eq(users.id, userId));
  return row.cents;
}

async function auditOf(objectId: string) {
  return client.db.select().from(auditLog).where(eq(auditLog.objectId, objectId)).orderBy(desc(auditLog.createdAt));
}

describe("the customer list and a customer's page", () => {
  it("lists accounts with balance, orders, joined and blocked, searchable by email, username and order id", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 1234 });
    const [order] = await client.db
      .insert(orders)
      .values({
        userId: shopper.id,
        email: shopper.email,
        subtotalCents: 500,
        priceCents: 500,
        paymentMethod: "sandbox",
      })
      .returning({ id: orders.id });

    const byEmail = await client.get(`/v1/admin/customers?search=${shopper.email.slice(0, 8).toUpperCase()}`, {
      token: support.token,
    });
    expect(byEmail.status).toBe(200);
    expect(byEmail.body.payload.records).toEqual([
      {
        _id: shopper.id,
        username: shopper.email.split("@")[0],
        email: shopper.email,
        role: "customer",
        balance: 12.34,
        orders: 1,
        joined: expect.any(String),
        blocked: false,
        blockedAt: null,
      },
    ]);
    const byOrder = await client.get(`/v1/admin/customers?search=${order.id}`, { token: support.token });
    expect(byOrder.body.payload.records.map((record: { _id: string }) => record._id)).toEqual([shopper.id]);
    const nobody = await client.get("/v1/admin/customers?search=no-such-person-anywhere", { token: support.token });
    expect(nobody.body.payload).toEqual({
      records: [],
      pager: { page: 1, previous: null, next: null, total: 0, pages: 1 },
    });
    const all = await client.get("/v1/admin/customers", { token: support.token });
    expect(all.body.payload.pager.total).toBeGreaterThanOrEqual(4);
    expect((await client.get("/v1/admin/customers?page=0", { token: support.token })).status).toBe(400);
  });

  it("shows one customer's profile, orders (paged), tickets and ledger; an unknown id is a 404", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 500 });
    for (let index = 0; index < 12; index++) {
      await client.db.insert(orders).values({
        userId: shopper.id,
        email: shopper.email,
        status: index === 0 ? "completed" : "expired",
        subtotalCents: 100 * (index + 1),
        priceCents: 100 * (index + 1),
        paymentMethod: "sandbox",
        createdAt: new Date(Date.UTC(2026, 0, 1 + index)),
      });
    }
    await client.db.insert(tickets).values({ userId: shopper.id, orderId: "", subject: "Where is my order?" });

    const profile = await client.get(`/v1/admin/customers/${shopper.id}`, { token: support.token });
    expect(profile.body.payload).toMatchObject({ email: shopper.email, balance: 5, orders: 12, tickets: 1 });
    const first = await client.get(`/v1/admin/customers/${shopper.id}/orders`, { token: support.token });
    expect(first.body.payload.records).toHaveLength(10);
    expect(first.body.payload.records[0]).toMatchObject({ status: "expired", price: 12 });
    expect(first.body.payload.pager).toMatchObject({ page: 1, next: 2, total: 12, pages: 2 });
    const second = await client.get(`/v1/admin/customers/${shopper.id}/orders?page=2`, { token: support.token });
    expect(second.body.payload.records.map((record: { price: number }) => record.price)).toEqual([2, 1]);
    const ticketList = await client.get(`/v1/admin/customers/${shopper.id}/tickets`, { token: support.token });
    expect(ticketList.body.payload.records).toMatchObject([{ subject: "Where is my order?", status: "open" }]);
    const ledger = await client.get(`/v1/admin/customers/${shopper.id}/ledger`, { token: support.token });
    expect(ledger.body.payload.records).toEqual([]);

    for (const path of ["", "/orders", "/tickets", "/ledger"]) {
      const unknown = await client.get(`/v1/admin/customers/${newId()}${path}`, { token: support.token });
      expect(unknown.status, path).toBe(404);
      expect((await client.get(`/v1/admin/customers/not-an-id${path}`, { token: support.token })).status).toBe(404);
    }
  });

  it("lets support read but not change anything, and customers nothing at all", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 500 });
    const changes: [string, unknown][] = [
      [`/v1/admin/customers/${shopper.id}/balance`, { direction: "credit", amount: 5, reason: "goodwill" }],
      [`/v1/admin/customers/${shopper.id}/block`, { reason: "fraud" }],
      [`/v1/admin/customers/${shopper.id}/unblock`, { reason: "sorted" }],
      ["/v1/admin/blocklist", { pattern: "*@support-tried.example" }],
    ];
    for (const [path, body] of changes) {
      expect((await client.post(path, body, { token: support.token })).status, path).toBe(403);
      expect((await client.post(path, body, { token: shopper.token })).status, path).toBe(403);
    }
    expect((await client.delete(`/v1/admin/blocklist/${newId()}`, { token: support.token })).status).toBe(403);
    expect((await client.get(`/v1/admin/customers/${shopper.id}`, { token: shopper.token })).status).toBe(403);
    expect(await balanceOf(shopper.id)).toBe(500);
    expect(await auditOf(shopper.id)).toEqual([]);
  });
});

describe("balance adjustments", () => {
  it("credits with a reason: one `adjustment` entry naming the staff member, audited with before and after", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 1000 });
    const answer = await client.post(
      `/v1/admin/customers/${shopper.id}/balance`,
      { direction: "credit", amount: 2.5, reason: "  Refund for a late delivery  " },
      { token: manager.token, ip: "198.51.100.40" },
    );
    expect(answer.status).toBe(200);
    expect(answer.body).toMatchObject({
      message: `Credited $2.50: ${shopper.email} now has $12.50`,
      payload: { balance: 12.5 },
    });
    expect(await balanceOf(shopper.id)).toBe(1250);
    const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, shopper.id));
    expect(ledger).toMatchObject([
      {
        type: "adjustment",
        amountCents: 250,
        balanceAfterCents: 1250,
        note: "Refund for a late delivery",
        staffUserId: manager.id,
        orderId: null,
      },
    ]);
    const [entry] = await auditOf(shopper.id);
    expect(entry).toMatchObject({
      actorUserId: manager.id,
      action: "customer.balance.credit",
      objectType: "user",
      objectLabel: shopper.email,
      changes: {
        before: { balance: "$10.00", reason: null },
        after: { balance: "$12.50", reason: "Refund for a late delivery" },
      },
      ip: "198.51.100.40",
    });

    // Staff see who made it; the customer sees the reason and 'Admin', never the staff member.
    const staffView = await client.get(`/v1/admin/customers/${shopper.id}/ledger`, { token: support.token });
    expect(staffView.body.payload.records[0]).toMatchObject({
      type: "adjustment",
      amount: 2.5,
      balanceAfter: 12.5,
      note: "Refund for a late delivery",
      staffEmail: manager.email,
    });
    const customerView = await client.get("/v1/balance/read", { token: shopper.token });
    expect(customerView.body.payload.records).toEqual([
      {
        _id: expect.any(String),
        createdAt: expect.any(String),
        type: "adjustment",
        amount: 2.5,
        note: "Refund for a late delivery",
        orderId: null,
        by: "Admin",
      },
    ]);
    expect(JSON.stringify(customerView.body)).not.toContain(manager.email);
  });

  it("debits as `out` (no order) and never below zero: too much is a clear 409 that changes nothing", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 700 });
    const debit = await client.post(
      `/v1/admin/customers/${shopper.id}/balance`,
      { direction: "debit", amount: 3, reason: "Chargeback" },
      { token: owner.token },
    );
    expect(debit.status).toBe(200);
    expect(debit.body.message).toBe(`Debited $3.00: ${shopper.email} now has $4.00`);
    const staffView = await client.get(`/v1/admin/customers/${shopper.id}/ledger`, { token: owner.token });
    expect(staffView.body.payload.records[0]).toMatchObject({ type: "out", amount: -3, balanceAfter: 4 });
    const customerView = await client.get("/v1/balance/read", { token: shopper.token });
    expect(customerView.body.payload.records[0]).toMatchObject({
      type: "out",
      amount: 3,
      note: "Chargeback",
      by: "Admin",
    });

    const tooMuch = await client.post(
      `/v1/admin/customers/${shopper.id}/balance`,
      { direction: "debit", amount: 4.01, reason: "Chargeback" },
      { token: owner.token },
    );
    expect(tooMuch.status).toBe(409);
    expect(tooMuch.body.message).toBe("The balance is $4.00: a debit cannot take it below zero.");
    expect(tooMuch.body.errors).toEqual({ amount: [tooMuch.body.message] });
    expect(await balanceOf(shopper.id)).toBe(400);
    expect(await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, shopper.id))).toHaveLength(1);
    expect(await auditOf(shopper.id)).toHaveLength(1);
  });

  it("requires a reason and a sensible amount, and a known customer", async () => {
    const shopper = await createCustomer(client.db, { balanceCents: 100 });
    const path = `/v1/admin/customers/${shopper.id}/balance`;
    const refusals: [unknown, string][] = [
      [{ direction: "credit", amount: 5 }, "reason: Please give a reason"],
      [{ direction: "credit", amount: 5, reason: "   " }, "reason: Please give a reason"],
      [{ direction: "credit", amount: 5, reason: "x".repeat(201) }, "reason: A reason is at most 200 characters"],
      [{ direction: "credit", amount: 0, reason: "r" }, "amount: Please enter a valid amount"],
      [{ direction: "credit", amount: -5, reason: "r" }, "amount: Please enter a valid amount"],
      [{ direction: "credit", amount: 1.005, reason: "r" }, "amount: Please enter a valid amount"],
      [
        { direction: "credit", amount: 10_000.01, reason: "r" },
        "amount: Please enter a valid amount: at most $10,000 at once",
      ],
      [{ direction: "sideways", amount: 5, reason: "r" }, "direction: Choose credit or debit"],
    ];
    for (const [body, message] of refusals) {
      const answer = await client.post(path, body, { token: owner.token });
      expect(answer.status, message).toBe(400);
      expect(answer.body.message).toBe(message);
    }
    const unknown = await client.post(
      `/v1/admin/customers/${newId()}/balance`,
      { direction: "credit", amount: 1, reason: "r" },
      { token: owner.token },
    );
    expect(unknown.status).toBe(404);
    expect(await balanceOf(shopper.id)).toBe(100);
  });

  it("refuses a staff member's own balance (403) for managers and owners alike, and lets another one adjust it", async () => {
    for (const role of ["manager", "owner"] as const) {
      const member = await createCustomer(client.db, { role, balanceCents: 100 });
      for (const direction of ["credit", "debit"] as const) {
        const refused = await client.post(
          `/v1/admin/customers/${member.id}/balance`,
          { direction, amount: direction === "credit" ? 10_000 : 1, reason: "My own bonus" },
          { token: member.token },
        );
        expect(refused, `${role} ${direction}`).toMatchObject({
          status: 403,
          body: { message: CUSTOMER_MESSAGES.ownBalance },
        });
      }
      expect(await balanceOf(member.id)).toBe(100);
      expect(await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, member.id))).toEqual([]);
      expect(await auditOf(member.id)).toEqual([]);

      const byAnother = await client.post(
        `/v1/admin/customers/${member.id}/balance`,
        { direction: "credit", amount: 1, reason: "Expenses" },
        { token: owner.token },
      );
      expect(byAnother.status).toBe(200);
      expect(await balanceOf(member.id)).toBe(200);
      expect((await auditOf(member.id)).map((entry) => entry.actorUserId)).toEqual([owner.id]);
    }
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("balance adjustments under concurrency (PostgreSQL)", () => {
  it("two debits that only one fits, sent at once: one applies, one is refused, the balance is never negative", async () => {
    for (let round = 0; round < 5; round++) {
      const shopper = await createCustomer(client.db, { balanceCents: 500 });
      const debit = (token: string) =>
        client.post(
          `/v1/admin/customers/${shopper.id}/balance`,
          { direction: "debit", amount: 3, reason: "Duplicate payout" },
          { token },
        );
      const answers = await Promise.all([debit(owner.token), debit(manager.token)]);
      expect(answers.map((answer) => answer.status).sort()).toEqual([200, 409]);
      expect(answers.find((answer) => answer.status === 409)!.body.message).toBe(
        "The balance is $2.00: a debit cannot take it below zero.",
      );
      expect(await balanceOf(shopper.id)).toBe(200);
      const ledger = await client.db.select().from(balanceLedger).where(eq(balanceLedger.userId, shopper.id));
      expect(ledger).toMatchObject([{ type: "out", amountCents: 300, balanceAfterCents: 200 }]);
      expect(await auditOf(shopper.id)).toHaveLength(1);
    }
  });
});

describe("blocking", () => {
  it("revokes every session at once, refuses sign-in with a clear message, and stops any later token", async () => {
    const shopper = await registered();
    const second = await signIn(shopper.username);
    expect(second.status).toBe(200);
    expect((await client.get("/v1/user/access", { token: shopper.token })).status).toBe(200);

    const blocked = await client.post(
      `/v1/admin/customers/${shopper.id}/block`,
      { reason: "Chargeback fraud" },
      { token: manager.token },
    );
    expect(blocked.status).toBe(200);
    expect(blocked.body.message).toBe(`${shopper.email} is blocked and signed out everywhere`);
    expect(blocked.body.payload).toMatchObject({ blocked: true, blockReason: "Chargeback fraud" });

    for (const token of [shopper.token, second.body.payload.token]) {
      expect((await client.get("/v1/user/access", { token })).status).toBe(401);
      expect((await client.get("/v1/balance/read", { token })).status).toBe(401);
    }
    const refused = await signIn(shopper.username);
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe(ACCOUNT_BLOCKED);
    // A wrong password still gets the ordinary answer: the block is said only to whoever knows the password.
    expect(
      (await client.post("/v1/user/login", { username: shopper.username, password: "wrong password 1" })).status,
    ).toBe(401);
    // A token made any other way (a reset, a second factor) resolves to nobody while the block lasts.
    expect((await client.get("/v1/user/access", { token: await createSession(client.db, shopper.id) })).status).toBe(
      401,
    );

    const [entry] = await auditOf(shopper.id);
    expect(entry).toMatchObject({
      action: "customer.block",
      actorUserId: manager.id,
      changes: { before: { blocked: false, reason: null }, after: { blocked: true, reason: "Chargeback fraud" } },
    });
    const listed = await client.get(`/v1/admin/customers?search=${shopper.email}`, { token: support.token });
    expect(listed.body.payload.records[0]).toMatchObject({ blocked: true, blockedAt: expect.any(String) });

    const again = await client.post(`/v1/admin/customers/${shopper.id}/block`, { reason: "x" }, { token: owner.token });
    expect(again).toMatchObject({ status: 409, body: { message: "This account is already blocked" } });

    const unblocked = await client.post(
      `/v1/admin/customers/${shopper.id}/unblock`,
      { reason: "Bank confirmed the payment" },
      { token: owner.token },
    );
    expect(unblocked.status).toBe(200);
    expect(unblocked.body.payload).toMatchObject({ blocked: false, blockedAt: null, blockReason: "" });
    expect((await signIn(shopper.username)).status).toBe(200);
    // The sessions revoked by the block stay revoked.
    expect((await client.get("/v1/user/access", { token: shopper.token })).status).toBe(401);
    expect((await auditOf(shopper.id))[0]).toMatchObject({
      action: "customer.unblock",
      changes: {
        before: { blocked: true, reason: "Chargeback fraud" },
        after: { blocked: false, reason: "Bank confirmed the payment" },
      },
    });
    const notBlocked = await client.post(
      `/v1/admin/customers/${shopper.id}/unblock`,
      { reason: "x" },
      { token: owner.token },
    );
    expect(notBlocked).toMatchObject({ status: 409, body: { message: "This account is not blocked" } });
  });

  it("does not let a password reset in", async () => {
    const shopper = await registered("resetter");
    await client.post(`/v1/admin/customers/${shopper.id}/block`, { reason: "Abuse" }, { token: owner.token });
    await client.post("/v1/user/forget-password", { email: shopper.email });
    const [mail] = await client.db
      .select()
      .from(mailOutbox)
      .where(eq(mailOutbox.to, shopper.email))
      .orderBy(desc(mailOutbox.createdAt))
      .limit(1);
    const otp = /Your code: (\d{6})/.exec(mail.text)![1];
    const NEW = "an entirely new passphrase";
    const reset = await client.post("/v1/user/reset-password", {
      email: shopper.email,
      otp,
      password: NEW,
      password2: NEW,
    });
    expect(reset.status).toBe(403);
    expect(reset.body.message).toBe(ACCOUNT_BLOCKED);
    expect(reset.body.payload).toBeUndefined();
    expect((await client.post("/v1/user/login", { username: shopper.username, password: NEW })).status).toBe(401);
  });

  it("needs a reason, and a role above the account's: nobody blocks themselves or an owner", async () => {
    const shopper = await createCustomer(client.db);
    const noReason = await client.post(`/v1/admin/customers/${shopper.id}/block`, {}, { token: owner.token });
    expect(noReason).toMatchObject({ status: 400, body: { message: "reason: Please give a reason" } });

    const otherOwner = await createCustomer(client.db, { role: "owner" });
    const otherManager = await createCustomer(client.db, { role: "manager" });
    const otherSupport = await createCustomer(client.db, { role: "support" });
    const block = (target: string, token: string) =>
      client.post(`/v1/admin/customers/${target}/block`, { reason: "test" }, { token });
    expect((await block(owner.id, owner.token)).body).toMatchObject({
      message: "You cannot block or unblock your own account.",
    });
    expect(await block(otherOwner.id, owner.token)).toMatchObject({
      status: 403,
      body: { message: "An owner cannot be blocked. Another owner can change their role under Staff first." },
    });
    expect(await block(otherOwner.id, manager.token)).toMatchObject({ status: 403 });
    expect(await block(otherManager.id, manager.token)).toMatchObject({
      status: 403,
      body: { message: "Your role cannot block or unblock a Manager." },
    });
    expect((await block(manager.id, manager.token)).status).toBe(403);
    expect((await block(otherSupport.id, manager.token)).status).toBe(200);
    expect((await block(otherManager.id, owner.token)).status).toBe(200);
    // A blocked staff member's token stops working in the back office too.
    expect((await client.get("/v1/admin/me", { token: otherManager.token })).status).toBe(401);
    const blockedFlags = await client.db
      .select({ id: users.id })
      .from(users)
      .where(sql`${users.blockedAt} is not null and ${users.id} in (${owner.id}, ${otherOwner.id}, ${manager.id})`);
    expect(blockedFlags).toEqual([]);
  });
});

describe("the checkout blocklist", () => {
  it("adds exact addresses and * patterns (lower-cased), refuses bad ones and duplicates as form errors, lists, removes, audits", async () => {
    const added = await client.post(
      "/v1/admin/blocklist",
      { pattern: "  *@Spam-Domain.example ", note: "Chargebacks" },
      { token: manager.token },
    );
    expect(added.status).toBe(201);
    expect(added.body).toMatchObject({
      message: "*@spam-domain.example is refused at checkout",
      payload: { _id: expect.any(String), pattern: "*@spam-domain.example" },
    });
    const duplicate = await client.post(
      "/v1/admin/blocklist",
      { pattern: "*@SPAM-DOMAIN.example" },
      { token: owner.token },
    );
    expect(duplicate.status).toBe(409);
    expect(duplicate.body).toMatchObject({
      message: "This address or pattern is already on the blocklist",
      errors: { pattern: ["This address or pattern is already on the blocklist"] },
    });
    for (const pattern of [
      "",
      "*",
      "*@*",
      "*@*.*",
      "no-at-sign",
      "two@@example.com",
      "a@b@c.example",
      "space @example.com",
    ]) {
      const bad = await client.post("/v1/admin/blocklist", { pattern }, { token: owner.token });
      expect(bad.status, pattern).toBe(400);
      expect(bad.body.errors.pattern, pattern).toEqual([
        "Enter an address (name@example.com) or a pattern with * (*@example.com, bot*@example.com)",
      ]);
    }
    expect(
      (await client.post("/v1/admin/blocklist", { pattern: "bot*@example.net" }, { token: owner.token })).status,
    ).toBe(201);

    const listed = await client.get("/v1/admin/blocklist?search=spam-domain", { token: support.token });
    expect(listed.body.payload.records).toEqual([
      {
        _id: added.body.payload._id,
        pattern: "*@spam-domain.example",
        note: "Chargebacks",
        createdBy: manager.email,
        createdAt: expect.any(String),
      },
    ]);
    const [entry] = await auditOf(added.body.payload._id);
    expect(entry).toMatchObject({
      action: "blocklist.add",
      objectType: "blocklist",
      changes: { before: null, after: { pattern: "*@spam-domain.example", note: "Chargebacks" } },
    });

    const removed = await client.delete(`/v1/admin/blocklist/${added.body.payload._id}`, { token: manager.token });
    expect(removed.status).toBe(200);
    expect(removed.body.message).toBe("*@spam-domain.example is no longer refused");
    expect((await auditOf(added.body.payload._id))[0]).toMatchObject({ action: "blocklist.remove" });
    expect(
      (await client.delete(`/v1/admin/blocklist/${added.body.payload._id}`, { token: manager.token })).status,
    ).toBe(404);
  });

  describe("refuses a blocked address with 403 and changes nothing", () => {
    let listing: Awaited<ReturnType<typeof createListing>>;
    beforeAll(async () => {
      listing = await createListing(client.db, { stock: 20 });
      await client.db
        .insert(emailBlocklist)
        .values([{ pattern: "*@blocked-shop.example" }, { pattern: "exact@example.org" }]);
    });

    const guestCheckout = (email: string) =>
      client.post("/v1/order/create", {
        isGuest: true,
        email,
        cartItems: [{ optionId: listing.optionId, duration: 30, quantity: 1 }],
        paymentMethod: "sandbox",
        "g-recaptcha-response": humanAnswer(),
      });

    async function accountsAndOrders(email: string) {
      const accounts = await client.db
        .select({ id: users.id })
        .from(users)
        .where(sql`lower(${users.email}) = lower(${email})`);
      const placed = await client.db
        .select({ id: orders.id })
        .from(orders)
        .where(sql`lower(${orders.email}) = lower(${email})`);
      return { accounts: accounts.length, orders: placed.length };
    }

    it("a guest checkout (pattern and exact address, any letter case): no account, no order", async () => {
      for (const email of ["Buyer@Blocked-Shop.example", "sub.buyer@blocked-shop.example", "EXACT@example.org"]) {
        const refused = await guestCheckout(email);
        expect(refused.status, email).toBe(403);
        expect(refused.body).toMatchObject({ message: EMAIL_REFUSED, errors: { email: [EMAIL_REFUSED] } });
        expect(await accountsAndOrders(email)).toEqual({ accounts: 0, orders: 0 });
      }
      // Near misses are not refused.
      for (const email of ["buyer@blocked-shop.example.com", "exact2@example.org", "exact@example.orgs"]) {
        expect((await guestCheckout(email)).status, email).toBe(201);
      }
    });

    it("a signed-in customer whose address matches: no order, the cart kept; and no top-up", async () => {
      const [account] = await client.db
        .insert(users)
        .values({ username: freshName("blk"), email: `${freshName("me")}@blocked-shop.example`, passwordHash: "x" })
        .returning({ id: users.id });
      const token = await createSession(client.db, account.id);
      await addToCart(client, token, listing.optionId);
      const refused = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token });
      expect(refused).toMatchObject({ status: 403, body: { message: EMAIL_REFUSED } });
      expect(await client.db.select().from(orders).where(eq(orders.userId, account.id))).toEqual([]);
      const [cart] = await client.db.select({ id: carts.id }).from(carts).where(eq(carts.userId, account.id));
      expect(await client.db.select().from(cartItems).where(eq(cartItems.cartId, cart.id))).toHaveLength(1);

      const topUp = await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance: 10 }, { token });
      expect(topUp).toMatchObject({ status: 403, body: { message: EMAIL_REFUSED } });
      expect(await client.db.select().from(payments).where(eq(payments.userId, account.id))).toEqual([]);
    });

    it("a redeem key: the key stays unused and no account is made", async () => {
      const { codes } = await generateKeys(client.db, {
        optionId: listing.optionId,
        durationDays: 30,
        quantity: 1,
        count: 1,
      });
      const email = "keyholder@blocked-shop.example";
      const refused = await client.post("/v1/order/redeemKey", {
        email,
        key: codes[0],
        "g-recaptcha-response": humanAnswer(),
      });
      expect(refused).toMatchObject({ status: 403, body: { message: EMAIL_REFUSED } });
      expect(await accountsAndOrders(email)).toEqual({ accounts: 0, orders: 0 });
      const unused = await client.db
        .select()
        .from(redeemKeys)
        .where(and(sql`${redeemKeys.usedAt} is null`, eq(redeemKeys.optionId, listing.optionId)));
      expect(unused).toHaveLength(1);
    });

    it("a blocked account's own address, at a guest checkout", async () => {
      const shopper = await createCustomer(client.db);
      await client.post(`/v1/admin/customers/${shopper.id}/block`, { reason: "fraud" }, { token: owner.token });
      const refused = await guestCheckout(shopper.email);
      expect(refused).toMatchObject({ status: 403, body: { message: EMAIL_REFUSED } });
      expect(await accountsAndOrders(shopper.email)).toEqual({ accounts: 1, orders: 0 });
    });
  });
});
