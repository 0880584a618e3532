import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { balanceLedger, payments } from "../../api/db/schema";
import { type ShopTestApi, createCustomer, createShopTestApi } from "../support/shop";

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client?.close());

describe("GET /v1/balance/read and POST /v1/balance/create", () => {
  it("need a signed-in customer", async () => {
    expect((await client.get("/v1/balance/read")).status).toBe(401);
    expect((await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance: 10 })).status).toBe(401);
  });

  it("refuses amounts that are not above zero, not numbers, or finer than a cent, and the balance as a method", async () => {
    const { token } = await createCustomer(client.db);
    for (const balance of [0, -5, "abc", 10.005]) {
      const answer = await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance }, { token });
      expect(answer.status).toBe(400);
    }
    const zero = await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance: 0 }, { token });
    expect(zero.body.message).toContain("Please enter a valid amount");
    const fromBalance = await client.post("/v1/balance/create", { paymentMethod: "balance", balance: 5 }, { token });
    expect(fromBalance.status).toBe(400);
    expect((await client.get("/v1/balance/read", { token })).body.payload.records).toEqual([]);
  });

  it("a top-up paid through the sandbox credits the balance once, with a ledger entry", async () => {
    const { token } = await createCustomer(client.db, { balanceCents: 250 });
    const created = await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance: 12.5 }, { token });
    expect(created.status).toBe(201);
    const paymentId = new URL(created.body.payload.paymentUrl).pathname.split("/").pop();

    // Nothing is credited before the payment arrives.
    expect((await client.get("/v1/balance/read", { token })).body.payload.balance).toBe(2.5);

    expect((await client.post(`/v1/sandbox/payments/${paymentId}/pay`, {})).status).toBe(200);
    // A second delivery of the same payment changes nothing.
    await client.post(`/v1/sandbox/payments/${paymentId}/pay`, {});

    const sheet = (await client.get("/v1/balance/read", { token })).body.payload;
    expect(sheet.balance).toBe(15);
    expect(sheet.records).toHaveLength(1);
    expect(sheet.records[0]).toMatchObject({ type: "in", amount: 12.5 });
    expect(sheet.records[0]._id).toMatch(/^[A-Za-z0-9_-]{22}$/);
  });

  it("shows one customer's sheet to that customer only", async () => {
    const owner = await createCustomer(client.db, { balanceCents: 900 });
    const other = await createCustomer(client.db);
    expect((await client.get("/v1/balance/read", { token: other.token })).body.payload.balance).toBe(0);
    expect((await client.get("/v1/balance/read", { token: owner.token })).body.payload.balance).toBe(9);
  });
});

describe("the balance sheet's pages", () => {
  it("pages the ledger 20 at a time, newest first, and shows one customer's entries only", async () => {
    const owner = await createCustomer(client.db);
    const other = await createCustomer(client.db);
    const start = Date.now() - 60_000;
    await client.db.insert(balanceLedger).values(
      Array.from({ length: 21 }, (_, index) => ({
        userId: owner.id,
        type: "in" as const,
        amountCents: 100 + index,
        balanceAfterCents: 0,
        createdAt: new Date(start + index * 1000),
      })),
    );
    await client.db
      .insert(balanceLedger)
      .values({ userId: other.id, type: "in", amountCents: 999, balanceAfterCents: 999 });

    const first = (await client.get("/v1/balance/read", { token: owner.token })).body.payload;
    expect(first.records).toHaveLength(20);
    expect(first.records[0].amount).toBe(1.2);
    expect(first.pager).toEqual({ page: 1, previous: null, next: 2, total: 21, pages: 2 });
    const second = (await client.get("/v1/balance/read?page=2", { token: owner.token })).body.payload;
    expect(second.records.map((entry: { amount: number }) => entry.amount)).toEqual([1]);
    expect(second.pager).toEqual({ page: 2, previous: 1, next: null, total: 21, pages: 2 });
    const beyond = (await client.get("/v1/balance/read?page=9", { token: owner.token })).body.payload;
    expect(beyond.records).toEqual([]);
    expect(beyond.pager).toMatchObject({ page: 9, previous: 2, next: null });

    const others = (await client.get("/v1/balance/read", { token: other.token })).body.payload;
    expect(others.records.map((entry: { amount: number }) => entry.amount)).toEqual([9.99]);
  });

  it("answers 400 to a page that is not a whole number from 1", async () => {
    const { token } = await createCustomer(client.db);
    for (const page of ["0", "-1", "1.5", "abc", "100001"]) {
      const answer = await client.get(`/v1/balance/read?page=${page}`, { token });
      expect(answer.status).toBe(400);
      expect(answer.body.success).toBe(false);
    }
  });

  it("refuses a top-up over the documented maximum with the valid-amount message, creating no payment", async () => {
    const { token, id } = await createCustomer(client.db);
    const answer = await client.post("/v1/balance/create", { paymentMethod: "sandbox", balance: 10_000.01 }, { token });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toContain("Please enter a valid amount");
    const created = await client.db.select().from(payments).where(eq(payments.userId, id));
    expect(created).toEqual([]);
  });
});
