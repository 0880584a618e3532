import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { users } from "../../api/db/schema";
import { type ShopTestApi, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * What one checkout costs the database (issue 27): every statement the API sends for POST /v1/cart/add and
 * POST /v1/order/create paid from the balance, transactions' own included, is counted, and the counts are held
 * here so a change that adds a round trip to the checkout shows up as a failing test, not as a slower store.
 */

let t: ShopTestApi;
let statements: string[] = [];
/**
 * Round trips: statements sent together (one write, before any answer came back) count once. An answer arrives
 * as I/O, after the check phase that closes the trip; statements a service sends at once (ADR 063) share one.
 */
let roundTrips = 0;
let tripOpen = false;

beforeAll(async () => {
  t = await createShopTestApi(
    {},
    {
      onQuery: (statement) => {
        statements.push(statement);
        if (tripOpen) return;
        roundTrips++;
        tripOpen = true;
        setImmediate(() => (tripOpen = false));
      },
    },
  );
});
afterAll(() => t.close());

async function statementsOf(send: () => Promise<{ status: number }>, expectedStatus: number) {
  statements = [];
  roundTrips = 0;
  expect((await send()).status).toBe(expectedStatus);
  return Object.assign(statements, { roundTrips });
}

describe("a returning customer's checkout", () => {
  it("adds to the cart and orders from the balance in a fixed, small number of statements", async () => {
    const customer = await createCustomer(t.db);
    await t.db.update(users).set({ balanceCents: 1_000_000 }).where(eq(users.id, customer.id));
    const listing = await createListing(t.db, { stock: 10 });
    const purchase = async () => ({
      add: await statementsOf(
        () =>
          t.post("/v1/cart/add", { optionId: listing.optionId, quantity: 1, duration: 30 }, { token: customer.token }),
        200,
      ),
      create: await statementsOf(
        () =>
          t.post(
            "/v1/order/create",
            { coupon: "", paymentMethod: "balance", message: "", isGuest: false },
            { token: customer.token },
          ),
        201,
      ),
    });
    await purchase(); // The first one also makes the cart.
    const { add, create } = await purchase();

    // The cart and its lines are found in one read, never made again; the options are read once per call.
    const reads = (list: string[], table: string) =>
      list.filter((statement) => statement.startsWith("select") && statement.includes(`from "${table}"`));
    expect(reads(add, "cart_items")).toHaveLength(1);
    expect(add.filter((statement) => statement.startsWith('insert into "carts"'))).toEqual([]);
    expect(create.filter((statement) => statement.startsWith('insert into "carts"'))).toEqual([]);
    expect(reads(add, "warranty_durations")).toHaveLength(1);
    expect(reads(create, "warranty_durations")).toHaveLength(1);
    // What the order/create transaction wrote it does not read back.
    expect(reads(create, "orders")).toEqual([]);
    expect(reads(create, "order_products")).toEqual([]);
    // Were 15 and 34 (main at d118646), then 12 and 30, now 6 and 15 (ADR 050): each cut is a round trip
    // less on every purchase. A transaction's begin and commit are not counted here.
    expect(add.length).toBeLessThanOrEqual(6);
    expect(create.length).toBeLessThanOrEqual(15);
    // The same 15 statements travel in 10 round trips (ADR 063): the order and its lines, the writes of a paid
    // order (coupon, cart, debit, status, mail, notice), and the stock check's lock and count go together. Each
    // trip is a turn of the event loop the open transaction waits for: under 20 buyers, the queue of the p95.
    // On PGlite no query waits on I/O, so fewer trips are seen there.
    expect(create.roundTrips).toBeLessThanOrEqual(10);
  });
});
