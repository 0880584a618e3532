import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, users } from "../../api/db/schema";
import { CART_CHANGED, shownCartDigest } from "../../contract/shown-cart";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/*
 * POST /v1/order/create with `shownCart` (ADR 052): the order's transaction orders the cart the client
 * showed, or nothing. Without the field the API orders the cart as it is, as it always did for spec clients.
 */

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi();
});
afterAll(() => client.close());

const shown = async (
  optionId: string,
  quantity: number,
  unitCents: number,
  coupon = "",
  totalCents = unitCents * quantity,
) =>
  shownCartDigest({
    lines: [{ optionId, duration: 30, quantity, priceCents: unitCents * quantity }],
    coupon,
    totalCents,
  });

async function balanceOf(userId: string) {
  const [row] = await client.db.select({ balanceCents: users.balanceCents }).from(users).where(eq(users.id, userId));
  return row.balanceCents;
}

describe("POST /v1/order/create with shownCart", () => {
  it("orders the cart when it is the one shown", async () => {
    const listing = await createListing(client.db, { priceCents: 399, stock: 5 });
    const customer = await createCustomer(client.db, { balanceCents: 5_000 });
    await addToCart(client, customer.token, listing.optionId, 2);
    const created = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance", shownCart: await shown(listing.optionId, 2, 399) },
      { token: customer.token },
    );
    expect(created.status).toBe(201);
    expect(await balanceOf(customer.id)).toBe(5_000 - 798);
  });

  it("refuses with 409 and errors.shownCart when the cart is another, and keeps the cart and the balance", async () => {
    const listing = await createListing(client.db, { priceCents: 399, stock: 5 });
    const customer = await createCustomer(client.db, { balanceCents: 5_000 });
    await addToCart(client, customer.token, listing.optionId, 3);
    const refused = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance", shownCart: await shown(listing.optionId, 2, 399) },
      { token: customer.token },
    );
    expect(refused.status).toBe(409);
    expect(refused.body).toMatchObject({
      success: false,
      message: CART_CHANGED,
      errors: { shownCart: [CART_CHANGED] },
    });
    expect(await balanceOf(customer.id)).toBe(5_000);
    expect(await client.db.select().from(orders).where(eq(orders.userId, customer.id))).toEqual([]);
    const cart = await client.get("/v1/cart/read", { token: customer.token });
    expect(cart.body.payload.cartItems.map((line: any) => line.quantity)).toEqual([3]);
  });

  it("orders the shown cart or nothing while another tab adds to it at the same moment (race)", async () => {
    const listing = await createListing(client.db, { priceCents: 399, stock: 40 });
    const digest = await shown(listing.optionId, 1, 399);
    for (let round = 0; round < 8; round++) {
      const customer = await createCustomer(client.db, { balanceCents: 5_000 });
      await addToCart(client, customer.token, listing.optionId, 1);
      const [created] = await Promise.all([
        client.post("/v1/order/create", { paymentMethod: "balance", shownCart: digest }, { token: customer.token }),
        client.post(
          "/v1/cart/add",
          { optionId: listing.optionId, quantity: 1, duration: 30 },
          { token: customer.token },
        ),
      ]);
      expect([201, 409]).toContain(created.status);
      const made = await client.db.select().from(orders).where(eq(orders.userId, customer.id));
      // Either the order is the one line shown, charged $3.99, or there is none and nothing was charged.
      expect(made.map((order) => order.priceCents)).toEqual(created.status === 201 ? [399] : []);
      expect(await balanceOf(customer.id)).toBe(created.status === 201 ? 5_000 - 399 : 5_000);
    }
  });

  it("answers a malformed digest with 400 under errors.shownCart", async () => {
    const customer = await createCustomer(client.db, { balanceCents: 5_000 });
    const refused = await client.post(
      "/v1/order/create",
      { paymentMethod: "balance", shownCart: "not a digest" },
      { token: customer.token },
    );
    expect(refused.status).toBe(400);
    expect(refused.body.errors?.shownCart).toBeDefined();
  });
});
