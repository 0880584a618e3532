import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../api/db/ids";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

let client: ShopTestApi;
let limited: Awaited<ReturnType<typeof createListing>>;
let bulk: Awaited<ReturnType<typeof createListing>>;
let scarce: Awaited<ReturnType<typeof createListing>>;

beforeAll(async () => {
  client = await createShopTestApi();
  limited = await createListing(client.db, { title: "Limited", priceCents: 499, stock: 8, maxQuantity: 5 });
  bulk = await createListing(client.db, { title: "Bulk", priceCents: 199, stock: 20, minQuantity: 3 });
  scarce = await createListing(client.db, { title: "Scarce", priceCents: 100, stock: 2 });
});
afterAll(() => client.close());

describe("server cart", () => {
  it("refuses every cart call without a signed-in user", async () => {
    const calls = [
      client.get("/v1/cart/read"),
      client.post("/v1/cart/add", { optionId: limited.optionId, quantity: 1, duration: 30 }),
      client.put("/v1/cart/update", { optionId: limited.optionId, quantity: 1 }),
      client.delete(`/v1/cart/remove/${limited.optionId}`),
      client.post("/v1/cart/clear", {}),
      client.post("/v1/cart/merge", { cartItems: [] }),
      client.post("/v1/cart/applyCoupon", { coupon: "X" }),
    ];
    for (const answer of await Promise.all(calls)) {
      expect(answer.status).toBe(401);
      expect(answer.body).toEqual({ success: false, message: "Please sign in to continue" });
    }
  });

  it("adds, reads with prices from the catalogue, and adds up the same option", async () => {
    const { token } = await createCustomer(client.db);
    const first = await client.post(
      "/v1/cart/add",
      { optionId: limited.optionId, quantity: 2, duration: 30 },
      { token },
    );
    expect(first.status).toBe(200);
    expect(first.body.message).toBe("Product added to cart");
    await addToCart(client, token, limited.optionId, 1);
    const { status, body } = await client.get("/v1/cart/read", { token });
    expect(status).toBe(200);
    expect(body.payload.cartPrice).toBe(14.97);
    expect(body.payload.cartItems).toHaveLength(1);
    const [line] = body.payload.cartItems;
    expect(line).toMatchObject({ quantity: 3, duration: 30, price: 14.97, soldOut: false });
    expect(line.option).toMatchObject({
      _id: limited.optionId,
      title: "Private",
      availableStock: 8,
      subOptions: [{ title: "1 Month Warranty", duration: 30, price: 4.99 }],
      product: { _id: limited.productId, title: "Limited", minQuantity: 1, maxQuantity: 5 },
    });
  });

  it("keeps quantities within the product's bounds and the stock", async () => {
    const { token } = await createCustomer(client.db);
    await addToCart(client, token, limited.optionId, 4);
    await addToCart(client, token, limited.optionId, 4);
    await addToCart(client, token, bulk.optionId, 1);
    await addToCart(client, token, scarce.optionId, 9);
    const { body } = await client.get("/v1/cart/read", { token });
    const quantities = Object.fromEntries(body.payload.cartItems.map((line: any) => [line.option._id, line.quantity]));
    expect(quantities).toEqual({ [limited.optionId]: 5, [bulk.optionId]: 3, [scarce.optionId]: 2 });
  });

  it("refuses unknown options and durations with a message", async () => {
    const { token } = await createCustomer(client.db);
    const unknown = await client.post("/v1/cart/add", { optionId: newId(), quantity: 1, duration: 30 }, { token });
    expect(unknown.status).toBe(404);
    expect(unknown.body.message).toBe("Option not found");
    const malformed = await client.post("/v1/cart/add", { optionId: "nope", quantity: 1, duration: 30 }, { token });
    expect(malformed.status).toBe(400);
    expect(malformed.body.message).toBe("optionId: Invalid option id");
    const duration = await client.post(
      "/v1/cart/add",
      { optionId: limited.optionId, quantity: 1, duration: 365 },
      { token },
    );
    expect(duration.status).toBe(400);
    expect(duration.body.message).toBe("Please select a warranty option");
    const zero = await client.post(
      "/v1/cart/add",
      { optionId: limited.optionId, quantity: 0, duration: 30 },
      { token },
    );
    expect(zero.status).toBe(400);
  });

  it("refuses an option that is sold out", async () => {
    const soldOut = await createListing(client.db, { stock: 0 });
    const { token } = await createCustomer(client.db);
    const answer = await client.post(
      "/v1/cart/add",
      { optionId: soldOut.optionId, quantity: 1, duration: 30 },
      { token },
    );
    expect(answer.status).toBe(409);
    expect(answer.body.message).toBe("This option is out of stock");
  });

  it("updates a quantity, refusing one outside the bounds or the stock", async () => {
    const { token } = await createCustomer(client.db);
    await addToCart(client, token, limited.optionId, 1);
    const updated = await client.put("/v1/cart/update", { optionId: limited.optionId, quantity: 4 }, { token });
    expect(updated.status).toBe(200);
    expect(updated.body.payload.cartItems[0].quantity).toBe(4);
    expect(updated.body.payload.cartPrice).toBe(19.96);

    const tooMany = await client.put("/v1/cart/update", { optionId: limited.optionId, quantity: 6 }, { token });
    expect(tooMany.status).toBe(400);
    expect(tooMany.body.message).toBe("The maximum quantity for this product is 5");

    await addToCart(client, token, bulk.optionId, 3);
    const tooFew = await client.put("/v1/cart/update", { optionId: bulk.optionId, quantity: 2 }, { token });
    expect(tooFew.status).toBe(400);
    expect(tooFew.body.message).toBe("The minimum quantity for this product is 3");

    await addToCart(client, token, scarce.optionId, 1);
    const overStock = await client.put("/v1/cart/update", { optionId: scarce.optionId, quantity: 3 }, { token });
    expect(overStock.status).toBe(409);
    expect(overStock.body.message).toBe("Only 2 left in stock");

    const missing = await client.put("/v1/cart/update", { optionId: newId(), quantity: 1 }, { token });
    expect(missing.status).toBe(404);
    expect(missing.body.message).toBe("This item is not in your cart");
  });

  it("removes a line by option id and clears the cart", async () => {
    const { token } = await createCustomer(client.db);
    await addToCart(client, token, limited.optionId, 1);
    await addToCart(client, token, bulk.optionId, 3);
    const removed = await client.delete(`/v1/cart/remove/${limited.optionId}`, { token });
    expect(removed.status).toBe(200);
    expect(removed.body.payload.cartItems.map((line: any) => line.option._id)).toEqual([bulk.optionId]);
    expect((await client.delete("/v1/cart/remove/bad-id", { token })).status).toBe(400);

    const cleared = await client.post("/v1/cart/clear", {}, { token });
    expect(cleared.status).toBe(200);
    const { body } = await client.get("/v1/cart/read", { token });
    expect(body.payload).toEqual({ cartItems: [], cartPrice: 0 });
  });

  it("keeps one cart per user", async () => {
    const alice = await createCustomer(client.db);
    const bob = await createCustomer(client.db);
    await addToCart(client, alice.token, limited.optionId, 2);
    const bobsCart = await client.get("/v1/cart/read", { token: bob.token });
    expect(bobsCart.body.payload.cartItems).toEqual([]);
  });

  it("merges the guest cookie cart in one call, skipping what cannot be sold", async () => {
    const { token } = await createCustomer(client.db);
    await addToCart(client, token, limited.optionId, 2);
    const unknown = newId();
    const { status, body } = await client.post(
      "/v1/cart/merge",
      {
        cartItems: [
          { optionId: limited.optionId, quantity: 1, duration: 30 },
          { optionId: bulk.optionId, quantity: 1, duration: 30 },
          { optionId: unknown, quantity: 1, duration: 30 },
        ],
      },
      { token },
    );
    expect(status).toBe(200);
    expect(body.payload.skipped).toEqual([unknown]);
    const quantities = Object.fromEntries(body.payload.cartItems.map((line: any) => [line.option._id, line.quantity]));
    expect(quantities).toEqual({ [limited.optionId]: 3, [bulk.optionId]: 3 });
    expect(body.payload.cartPrice).toBe(20.94);
  });

  it("merges a guest cart once per Idempotency-Key, even when two merges with that key arrive at once", async () => {
    const { token } = await createCustomer(client.db);
    const lines = { cartItems: [{ optionId: limited.optionId, quantity: 2, duration: 30 }] };
    const once = { token, headers: { "idempotency-key": "guest-cart:first" } };
    const both = await Promise.all([
      client.post("/v1/cart/merge", lines, once),
      client.post("/v1/cart/merge", lines, once),
    ]);
    for (const answer of both) expect(answer.body.payload.cartItems[0].quantity).toBe(2);
    expect(both.map((answer) => answer.headers.get("idempotent-replayed"))).toContain("true");
    const again = await client.post("/v1/cart/merge", lines, once);
    expect(again.body.payload.cartItems[0].quantity).toBe(2);
    const read = await client.get("/v1/cart/read", { token });
    expect(read.body.payload.cartItems[0].quantity).toBe(2);

    // Another guest cart (another key) joins as before; the same key with other lines is refused.
    const another = await client.post("/v1/cart/merge", lines, {
      token,
      headers: { "idempotency-key": "guest-cart:b" },
    });
    expect(another.body.payload.cartItems[0].quantity).toBe(4);
    const otherLines = { cartItems: [{ optionId: limited.optionId, quantity: 1, duration: 30 }] };
    expect((await client.post("/v1/cart/merge", otherLines, once)).status).toBe(422);
  });
});
