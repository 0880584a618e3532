import { afterAll, beforeAll, describe, expect, it } from "vitest";
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
