import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { EMAIL_REFUSED } from "../../contract/admin-customers";
import { emailBlocklist, orders, paymentGateways, users } from "../../api/db/schema";
import { METHOD_UNAVAILABLE } from "../../api/services/payments/checkout";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * What a signed-in checkout checks as it locks the customer (ADR 050): the payment method, then the address's
 * blocks, read in that one statement. Each refusal leaves no order; another account's block refuses nobody.
 */

let t: ShopTestApi;

beforeAll(async () => {
  t = await createShopTestApi();
});
afterAll(() => t.close());

async function customerWithCart(listing: { optionId: string }) {
  const customer = await createCustomer(t.db, { balanceCents: 100_000 });
  await addToCart(t, customer.token, listing.optionId);
  return customer;
}

const orderFromBalance = (token: string, paymentMethod = "balance") =>
  t.post("/v1/order/create", { coupon: "", paymentMethod, message: "", isGuest: false }, { token });

const ordersOf = (userId: string) => t.db.select().from(orders).where(eq(orders.userId, userId));

describe("a signed-in checkout's admission", () => {
  it("is not refused because some other account is blocked", async () => {
    const listing = await createListing(t.db, { stock: 5 });
    const blocked = await createCustomer(t.db);
    await t.db.update(users).set({ blockedAt: new Date() }).where(eq(users.id, blocked.id));
    const customer = await customerWithCart(listing);
    expect((await orderFromBalance(customer.token)).status).toBe(201);
    expect(await ordersOf(customer.id)).toHaveLength(1);
  });

  it("refuses an address on the blocklist with 403 under email, and a disabled method with 400 first", async () => {
    const listing = await createListing(t.db, { stock: 5 });
    const customer = await customerWithCart(listing);
    await t.db.insert(emailBlocklist).values({ pattern: customer.email.toLowerCase() });
    await t.db.update(paymentGateways).set({ enabled: false }).where(eq(paymentGateways.name, "balance"));
    const unavailable = await orderFromBalance(customer.token);
    expect(unavailable).toMatchObject({ status: 400, body: { errors: { paymentMethod: [METHOD_UNAVAILABLE] } } });
    await t.db.update(paymentGateways).set({ enabled: true }).where(eq(paymentGateways.name, "balance"));
    const refused = await orderFromBalance(customer.token);
    expect(refused).toMatchObject({ status: 403, body: { errors: { email: [EMAIL_REFUSED] } } });
    expect(await ordersOf(customer.id)).toEqual([]);
  });

  it("offers the sandbox without a row of its own, and no method this process cannot use", async () => {
    const listing = await createListing(t.db, { stock: 5 });
    const customer = await customerWithCart(listing);
    expect((await orderFromBalance(customer.token, "sandbox")).status).toBe(201);
    const other = await customerWithCart(listing);
    // Enabled in the database, but no credentials are configured here.
    expect((await orderFromBalance(other.token, "stripe")).status).toBe(400);
  });
});
