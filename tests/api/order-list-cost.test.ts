import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type ShopTestApi, createCustomer, createListing, createShopTestApi } from "../support/shop";
import { seedOrderHistory } from "../support/order-history";

/*
 * The customer area's cost must not grow with the history: the order list and the profile run the same
 * few queries for 20 orders as for 200 (no query per order or per order line).
 */

let t: ShopTestApi;
let statements = 0;

beforeAll(async () => {
  // Every statement the API sends (openDatabase's onQuery).
  t = await createShopTestApi({}, { onQuery: () => void statements++ });
});
afterAll(() => t.close());

async function statementsFor(send: () => Promise<{ status: number }>) {
  const before = statements;
  expect((await send()).status).toBe(200);
  return statements - before;
}

async function customerWith(orderCount: number) {
  const customer = await createCustomer(t.db);
  const listing = await createListing(t.db, { stock: 0 });
  await seedOrderHistory(t.db, { userId: customer.id, email: customer.email }, listing, orderCount);
  return customer;
}

describe("the customer area's queries", () => {
  it("are as many for 200 orders as for 20", async () => {
    const few = await customerWith(20);
    const many = await customerWith(200);
    const cost = async (token: string) => ({
      list: await statementsFor(() => t.post("/v1/order/read", { page: 1 }, { token })),
      secondPage: await statementsFor(() => t.post("/v1/order/read", { page: 2 }, { token })),
      search: await statementsFor(() => t.post("/v1/order/read", { page: 1, search: "History" }, { token })),
      profile: await statementsFor(() => t.get("/v1/user/profile", { token })),
    });

    const costOfFew = await cost(few.token);
    expect(await cost(many.token)).toEqual(costOfFew);
    // The session, then the count and the page of orders, their lines and their credentials.
    expect(costOfFew.list).toBeGreaterThanOrEqual(4);
    expect(costOfFew.list).toBeLessThanOrEqual(6);
    expect(costOfFew.profile).toBeLessThanOrEqual(5);
  });

  it("lists a page of the long history with its lines and credentials", async () => {
    const customer = await customerWith(200);
    const answer = await t.post("/v1/order/read", { page: 1 }, { token: customer.token });
    expect(answer.body.payload.pager).toMatchObject({ total: 200, pages: 20 });
    const records = answer.body.payload.records as { status: string; products: { creds: string[] }[] }[];
    expect(records).toHaveLength(10);
    const completed = records.find((record) => record.status === "completed" && record.products.length === 2);
    expect(completed?.products.map((line) => line.creds.length)).toEqual([1, 1]);
  });
});
