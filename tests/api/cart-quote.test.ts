import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/client";
import { newId } from "../../api/db/ids";
import { productOptions, products, stockCredentials, warrantyDurations } from "../../api/db/schema";
import { quoteCart } from "../../api/services/cart/quote";
import { type TestApi, createTestApi } from "../support/api";

const ids = {
  limited: newId(),
  limitedOption: newId(),
  bulk: newId(),
  bulkOption: newId(),
  manual: newId(),
  manualOption: newId(),
  inactiveOption: newId(),
  hiddenProduct: newId(),
  hiddenProductOption: newId(),
};

function available(optionId: string, howMany: number) {
  return Array.from({ length: howMany }, (_, index) => ({ optionId, username: `u${index}`, password: `p${index}` }));
}

/**
 * limited: max 5 per order, 8 in stock, 30 days $4.99 / 90 days $12.50.
 * bulk: at least 3 per order, only 2 in stock (so it is sold out for this product).
 * manual: no stock rows, no maximum.
 */
async function insertCatalogue(db: Database) {
  await db.insert(products).values([
    { id: ids.limited, title: "Limited", picture: "/images/products/limited.svg", maxQuantity: 5 },
    { id: ids.bulk, title: "Bulk", minQuantity: 3 },
    { id: ids.manual, title: "Manual", fulfilMode: "manual" },
    { id: ids.hiddenProduct, title: "Hidden", active: false },
  ]);
  await db.insert(productOptions).values([
    { id: ids.limitedOption, productId: ids.limited, title: "Private" },
    { id: ids.inactiveOption, productId: ids.limited, title: "Old", active: false },
    { id: ids.bulkOption, productId: ids.bulk, title: "Pack" },
    { id: ids.manualOption, productId: ids.manual, title: "Session" },
    { id: ids.hiddenProductOption, productId: ids.hiddenProduct, title: "Any" },
  ]);
  await db.insert(warrantyDurations).values([
    { optionId: ids.limitedOption, title: "1 Month Warranty", durationDays: 30, priceCents: 499 },
    { optionId: ids.limitedOption, title: "3 Months Warranty", durationDays: 90, priceCents: 1250 },
    { optionId: ids.inactiveOption, title: "1 Month Warranty", durationDays: 30, priceCents: 100 },
    { optionId: ids.bulkOption, title: "1 Month Warranty", durationDays: 30, priceCents: 199 },
    { optionId: ids.manualOption, title: "1 Month Warranty", durationDays: 30, priceCents: 2500 },
    { optionId: ids.hiddenProductOption, title: "1 Month Warranty", durationDays: 30, priceCents: 100 },
  ]);
  await db
    .insert(stockCredentials)
    .values([...available(ids.limitedOption, 8), ...available(ids.bulkOption, 2), ...available(ids.inactiveOption, 5)]);
}

let client: TestApi;

beforeAll(async () => {
  client = await createTestApi({ prepare: (handle) => insertCatalogue(handle.db) });
});
afterAll(async () => {
  await client?.close();
});

const quote = (cartItems: unknown) => client.post("/v1/cart/quote", { cartItems });

describe("POST /v1/cart/quote", () => {
  it("prices each line from the database and sums the total", async () => {
    const { status, body } = await quote([
      { optionId: ids.limitedOption, duration: 90, quantity: 2 },
      { optionId: ids.manualOption, duration: 30, quantity: 1 },
    ]);
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.payload.dropped).toEqual([]);
    expect(body.payload.cartPrice).toBe(50);
    const [limitedLine, manualLine] = body.payload.cartItems;
    expect(limitedLine).toEqual({
      quantity: 2,
      duration: 90,
      price: 25,
      soldOut: false,
      option: {
        _id: ids.limitedOption,
        title: "Private",
        availableStock: 8,
        subOptions: [
          { _id: expect.any(String), title: "1 Month Warranty", duration: 30, price: 4.99 },
          { _id: expect.any(String), title: "3 Months Warranty", duration: 90, price: 12.5 },
        ],
        product: {
          _id: ids.limited,
          title: "Limited",
          picture: "/images/products/limited.svg",
          minQuantity: 1,
          maxQuantity: 5,
        },
      },
    });
    expect(manualLine).toMatchObject({ quantity: 1, price: 25, soldOut: false, option: { availableStock: 999 } });
  });

  it("clamps quantities to the product maximum and to the stock", async () => {
    const { body } = await quote([{ optionId: ids.limitedOption, duration: 30, quantity: 9 }]);
    expect(body.payload.cartItems[0]).toMatchObject({ quantity: 5, price: 24.95, soldOut: false });
    expect(body.payload.cartPrice).toBe(24.95);

    const manual = await quote([{ optionId: ids.manualOption, duration: 30, quantity: 999 }]);
    expect(manual.body.payload.cartItems[0]).toMatchObject({ quantity: 999, price: 24975 });
  });

  it("clamps to the stock when it is below the product maximum", async () => {
    const scarce = newId();
    const scarceOption = newId();
    await client.db.insert(products).values({ id: scarce, title: "Scarce", maxQuantity: 10 });
    await client.db.insert(productOptions).values({ id: scarceOption, productId: scarce, title: "Only" });
    await client.db
      .insert(warrantyDurations)
      .values({ optionId: scarceOption, title: "1 Month Warranty", durationDays: 30, priceCents: 300 });
    await client.db.insert(stockCredentials).values(available(scarceOption, 3));
    const { body } = await quote([{ optionId: scarceOption, duration: 30, quantity: 7 }]);
    expect(body.payload.cartItems[0]).toMatchObject({ quantity: 3, price: 9, soldOut: false });
  });

  it("keeps a line whose stock is below the minimum as sold out, outside the total", async () => {
    const { body } = await quote([
      { optionId: ids.bulkOption, duration: 30, quantity: 4 },
      { optionId: ids.limitedOption, duration: 30, quantity: 1 },
    ]);
    expect(body.payload.cartItems[0]).toMatchObject({
      quantity: 4,
      price: 7.96,
      soldOut: true,
      option: { _id: ids.bulkOption, availableStock: 2, product: { minQuantity: 3 } },
    });
    expect(body.payload.cartPrice).toBe(4.99);
  });

  it("drops unknown and inactive options and durations the option does not have", async () => {
    const unknown = newId();
    const { status, body } = await quote([
      { optionId: unknown, duration: 30, quantity: 1 },
      { optionId: ids.inactiveOption, duration: 30, quantity: 1 },
      { optionId: ids.hiddenProductOption, duration: 30, quantity: 1 },
      { optionId: ids.limitedOption, duration: 365, quantity: 1 },
      { optionId: ids.manualOption, duration: 30, quantity: 2 },
    ]);
    expect(status).toBe(200);
    expect(body.payload.dropped).toEqual([unknown, ids.inactiveOption, ids.hiddenProductOption, ids.limitedOption]);
    expect(body.payload.cartItems).toHaveLength(1);
    expect(body.payload.cartPrice).toBe(50);
  });

  it("answers an empty cart with a zero total", async () => {
    const { status, body } = await quote([]);
    expect(status).toBe(200);
    expect(body.payload).toEqual({ cartItems: [], cartPrice: 0, dropped: [] });
  });

  it("rejects malformed bodies with 400 and field errors", async () => {
    const line = { optionId: ids.limitedOption, duration: 30, quantity: 1 };
    const cases: unknown[] = [
      [{ ...line, optionId: "short" }],
      [{ ...line, quantity: 0 }],
      [{ ...line, quantity: 1000 }],
      [{ ...line, quantity: 1.5 }],
      [{ ...line, quantity: "2" }],
      [{ ...line, duration: -30 }],
      [{ ...line, duration: 30.5 }],
      [{ ...line, duration: 1e20 }],
      [{ duration: 30, quantity: 1 }],
      Array.from({ length: 51 }, () => line),
      "not a list",
    ];
    for (const cartItems of cases) {
      const { status, body } = await quote(cartItems);
      expect(status, JSON.stringify(cartItems).slice(0, 80)).toBe(400);
      expect(body.success).toBe(false);
      expect(body.errors).toBeTypeOf("object");
    }
    const missing = await client.post("/v1/cart/quote", {});
    expect(missing.status).toBe(400);
    const broken = await client.post("/v1/cart/quote", "{not json");
    expect(broken.status).toBe(400);
    expect(broken.body).toMatchObject({ success: false, message: "The request body must be valid JSON" });
  });

  it("is the same function the server cart and checkout will call", async () => {
    const result = await quoteCart(client.db, [{ optionId: ids.limitedOption, duration: 30, quantity: 3 }]);
    expect(result.cartPriceCents).toBe(1497);
    expect(result.cartPrice).toBe(14.97);
  });
});
