import { describe, expect, it } from "vitest";
import {
  CART_LINE_LIMIT,
  createCartCookie,
  mergeCartItem,
  parseStoredCart,
  readCartItems,
  serializeCart,
} from "~/lib/cart.server";
import { quantityBounds, withCartPanel } from "~/lib/cart-client";

const optionA = "AAAAAAAAAAAAAAAAAAAAAA";
const optionB = "BBBBBBBBBBBBBBBBBBBBBB";
const secret = "unit-test-secret-that-is-long-enough-0123456789";
const cookie = createCartCookie([secret], false);

/** A request that carries the cookie from a Set-Cookie header. */
function requestWith(setCookie: string): Request {
  return new Request("http://store.test/shop", { headers: { cookie: setCookie.split(";")[0] } });
}

describe("parseStoredCart", () => {
  it("reads [optionId, duration, quantity] tuples", () => {
    expect(parseStoredCart([[optionA, 30, 2]])).toEqual([{ optionId: optionA, duration: 30, quantity: 2 }]);
  });

  it("rejects anything that is not a cart we wrote", () => {
    expect(parseStoredCart({})).toBeNull();
    expect(parseStoredCart("[]")).toBeNull();
    expect(parseStoredCart([[optionA, 30, 0]])).toBeNull();
    expect(parseStoredCart([[optionA, 30, 1000]])).toBeNull();
    expect(parseStoredCart([[optionA, -1, 1]])).toBeNull();
    expect(parseStoredCart([["short", 30, 1]])).toBeNull();
    expect(parseStoredCart([{ optionId: optionA, duration: 30, quantity: 1 }])).toBeNull();
  });

  it("rejects an oversized cart", () => {
    const lines = Array.from({ length: CART_LINE_LIMIT + 1 }, (_, index) => [
      `${String(index).padStart(2, "0")}${"x".repeat(20)}`,
      30,
      1,
    ]);
    expect(parseStoredCart(lines.slice(0, CART_LINE_LIMIT))).toHaveLength(CART_LINE_LIMIT);
    expect(parseStoredCart(lines)).toBeNull();
  });

  it("keeps one line per option", () => {
    expect(
      parseStoredCart([
        [optionA, 30, 1],
        [optionA, 90, 3],
      ]),
    ).toEqual([{ optionId: optionA, duration: 90, quantity: 3 }]);
  });
});

describe("the signed cart cookie", () => {
  it("round-trips the items", async () => {
    const items = [
      { optionId: optionA, duration: 30, quantity: 2 },
      { optionId: optionB, duration: 365, quantity: 1 },
    ];
    const { items: read, replaceHeader } = await readCartItems(requestWith(await serializeCart(items, cookie)), cookie);
    expect(read).toEqual(items);
    expect(replaceHeader).toBeUndefined();
  });

  it("is an empty cart, and nothing to replace, when there is no cookie", async () => {
    expect(await readCartItems(new Request("http://store.test/"), cookie)).toEqual({
      items: [],
      replaceHeader: undefined,
    });
  });

  it("treats a tampered cookie as an empty cart and replaces it", async () => {
    const header = await serializeCart([{ optionId: optionA, duration: 30, quantity: 2 }], cookie);
    const [value, signature] = header.split(";")[0].slice("cart=".length).split(".");
    const forgedValue = Buffer.from(JSON.stringify([[optionA, 30, 999]])).toString("base64");
    const tampered = new Request("http://store.test/", {
      headers: { cookie: `cart=${encodeURIComponent(forgedValue)}.${signature}` },
    });
    expect(value).not.toBe(forgedValue);
    const result = await readCartItems(tampered, cookie);
    expect(result.items).toEqual([]);
    expect(result.replaceHeader).toMatch(/^cart=/);
    expect((await readCartItems(requestWith(result.replaceHeader ?? ""), cookie)).items).toEqual([]);
  });

  it("rejects a cookie signed with another secret, and garbage", async () => {
    const foreign = createCartCookie(["another-secret-that-is-long-enough-0123456789"], false);
    const header = await serializeCart([{ optionId: optionA, duration: 30, quantity: 2 }], foreign);
    expect((await readCartItems(requestWith(header), cookie)).items).toEqual([]);
    const garbage = new Request("http://store.test/", { headers: { cookie: "cart=%%%not-base64" } });
    expect((await readCartItems(garbage, cookie)).items).toEqual([]);
  });

  it("stays well under the 4 KB cookie limit at 50 lines", async () => {
    const items = Array.from({ length: CART_LINE_LIMIT }, (_, index) => ({
      optionId: `${String(index).padStart(2, "0")}${"x".repeat(20)}`,
      duration: 365,
      quantity: 999,
    }));
    expect((await serializeCart(items, cookie)).length).toBeLessThan(4096);
  });
});

describe("mergeCartItem", () => {
  it("adds a new option as a new line", () => {
    expect(mergeCartItem([], { optionId: optionA, duration: 30, quantity: 1 })).toHaveLength(1);
  });

  it("replaces the duration and adds the quantity of an option already in the cart", () => {
    const merged = mergeCartItem([{ optionId: optionA, duration: 30, quantity: 2 }], {
      optionId: optionA,
      duration: 90,
      quantity: 3,
    });
    expect(merged).toEqual([{ optionId: optionA, duration: 90, quantity: 5 }]);
  });
});

describe("quantityBounds and withCartPanel", () => {
  it("caps the quantity by the product limit and the stock", () => {
    expect(quantityBounds({ minQuantity: 1, maxQuantity: null }, 32)).toEqual({ min: 1, max: 32 });
    expect(quantityBounds({ minQuantity: 2, maxQuantity: 20 }, 999)).toEqual({ min: 2, max: 20 });
    expect(quantityBounds({ minQuantity: 1, maxQuantity: null }, 5000)).toEqual({ min: 1, max: 999 });
  });

  it("adds and drops ?cart=open, keeping the rest of the address", () => {
    expect(withCartPanel("/shop?q=vpn", true)).toBe("/shop?q=vpn&cart=open");
    expect(withCartPanel("/shop?q=vpn&cart=open", false)).toBe("/shop?q=vpn");
  });
});
