import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, stockCredentials, users } from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { RESERVATION_MS } from "../../api/services/order-create";
import { expireUnpaidOrders } from "../../api/services/order-settlement";
import { createSession } from "../../api/services/accounts/sessions";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * ADR 019: an order that ends unpaid (payment cancelled, or expired) gives its lines back to the cart it came
 * from: a customer's server cart at once, a guest's cookie cart through POST /v1/cart/reclaim.
 */

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

const paymentIdOf = (paymentUrl: string) => paymentUrl.split("/").at(-1)!;

async function serverCartLines(token: string) {
  const cart = await client.get("/v1/cart/read", { token });
  return (cart.body.payload.cartItems as { option: { _id: string }; duration: number; quantity: number }[]).map(
    (line) => ({ optionId: line.option._id, duration: line.duration, quantity: line.quantity }),
  );
}

async function freeStock(optionId: string) {
  const rows = await client.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, optionId));
  return rows.filter((row) => row.orderProductId === null).length;
}

async function customerOrder(customer: { token: string }, optionId: string, quantity: number) {
  await addToCart(client, customer.token, optionId, quantity);
  const created = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
  expect(created.status).toBe(201);
  expect(await serverCartLines(customer.token)).toEqual([]);
  return created.body.payload as { orderId: string; paymentUrl: string };
}

async function guestOrder(optionId: string, quantity: number) {
  const created = await client.post("/v1/order/create", {
    isGuest: true,
    email: `guest-${randomBytes(5).toString("hex")}@example.com`,
    cartItems: [{ optionId, duration: 30, quantity }],
    paymentMethod: "sandbox",
    "g-recaptcha-response": issueChallenge(client.config, new Date(Date.now() - 5_000)).token,
  });
  expect(created.status).toBe(201);
  return created.body.payload as { orderId: string; paymentUrl: string };
}

describe("a customer's order that ends unpaid", () => {
  it("gives its lines back to the server cart when the payment is cancelled, and frees the stock", async () => {
    const customer = await createCustomer(client.db);
    const listing = await createListing(client.db, { stock: 4 });
    const order = await customerOrder(customer, listing.optionId, 2);
    expect(await freeStock(listing.optionId)).toBe(2);

    const cancelled = await client.post(`/v1/sandbox/payments/${paymentIdOf(order.paymentUrl)}/cancel`);
    expect(cancelled.status).toBe(200);
    expect(await serverCartLines(customer.token)).toEqual([{ optionId: listing.optionId, duration: 30, quantity: 2 }]);
    expect(await freeStock(listing.optionId)).toBe(4);
  });

  it("gives its lines back when it expires, keeping a line the customer has added again since", async () => {
    const customer = await createCustomer(client.db);
    const [kept, returned] = [await createListing(client.db), await createListing(client.db)];
    await addToCart(client, customer.token, returned.optionId, 1);
    const order = await customerOrder(customer, kept.optionId, 1);
    // Added again while the order waits: the newer choice wins.
    await addToCart(client, customer.token, kept.optionId, 3);
    await expireUnpaidOrders(client.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    const read = await client.post("/v1/cart/reclaim", { orderId: order.orderId });
    expect(read.body.payload.status).toBe("expired");
    expect(await serverCartLines(customer.token)).toEqual(
      expect.arrayContaining([
        { optionId: kept.optionId, duration: 30, quantity: 3 },
        { optionId: returned.optionId, duration: 30, quantity: 1 },
      ]),
    );
  });
});

describe("a guest's order that ends unpaid (POST /v1/cart/reclaim)", () => {
  it("answers no lines while the order waits for its payment", async () => {
    const listing = await createListing(client.db);
    const order = await guestOrder(listing.optionId, 1);
    const answer = await client.post("/v1/cart/reclaim", { orderId: order.orderId });
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({ status: "pending", cartItems: [] });
  });

  it("answers the lines once cancelled, the same on every ask, and takes them out of the account made at checkout", async () => {
    const listing = await createListing(client.db, { stock: 3 });
    const order = await guestOrder(listing.optionId, 2);
    await client.post(`/v1/sandbox/payments/${paymentIdOf(order.paymentUrl)}/cancel`);

    const lines = [{ optionId: listing.optionId, duration: 30, quantity: 2 }];
    for (let ask = 0; ask < 2; ask++) {
      const answer = await client.post("/v1/cart/reclaim", { orderId: order.orderId });
      expect(answer.body.payload).toEqual({ status: "cancelled", cartItems: lines });
    }
    // The account made at checkout does not keep them too: signing in later would double them.
    const [account] = await client.db
      .select({ id: users.id, autoCreated: users.autoCreated })
      .from(orders)
      .innerJoin(users, eq(orders.userId, users.id))
      .where(eq(orders.id, order.orderId));
    expect(account.autoCreated).toBe(true);
    expect(await serverCartLines(await createSession(client.db, account.id))).toEqual([]);
  });

  it("answers no lines for a paid order", async () => {
    const listing = await createListing(client.db);
    const order = await guestOrder(listing.optionId, 1);
    await client.post(`/v1/sandbox/payments/${paymentIdOf(order.paymentUrl)}/pay`);
    const answer = await client.post("/v1/cart/reclaim", { orderId: order.orderId });
    expect(answer.body.payload).toEqual({ status: "completed", cartItems: [] });
  });

  it("is a 404 for an unknown order and a 400 for a malformed id", async () => {
    expect((await client.post("/v1/cart/reclaim", { orderId: "AAAAAAAAAAAAAAAAAAAAAA" })).status).toBe(404);
    expect((await client.post("/v1/cart/reclaim", { orderId: "../x" })).status).toBe(400);
  });
});
