import type { AppLoadContext } from "@remix-run/node";
import { describe, expect, it } from "vitest";
import { createLogger } from "../../api/logger";
import { CART_LINE_LIMIT } from "../../contract/order";
import { cartFor, mergeCartItem } from "~/lib/cart.server";
import { quantityBounds, withCartPanel } from "~/lib/cart-client";
import { createStoreCookies } from "~/lib/cookies.server";

const optionA = "AAAAAAAAAAAAAAAAAAAAAA";
const optionB = "BBBBBBBBBBBBBBBBBBBBBB";
const settings = {
  sessionSecrets: ["unit-test-secret-that-is-long-enough-0123456789"],
  servedOverHttps: false,
  inlineStylesheet: null,
  trustsApiAnswers: false,
};
const { cart: cartCookie } = createStoreCookies(settings);
/** A guest's load context: no /v1 call is needed to read the cookie's lines. */
const context: AppLoadContext = {
  cspNonce: "",
  requestId: "test-request",
  logger: createLogger("silent"),
  settings,
  callApi: () => Promise.reject(new Error("no API in this test")),
};

/** A request that carries the cookie from a Set-Cookie header. */
function requestWith(setCookie: string): Request {
  return new Request("http://store.test/shop", { headers: { cookie: setCookie.split(";")[0] } });
}
const linesOf = (request: Request) => cartFor(request, context).cookieLines();

describe("the guest's cookie cart", () => {
  it("reads [optionId, duration, quantity] tuples as items", async () => {
    const request = requestWith(
      await cartCookie.serialize([
        [optionA, 30, 2],
        [optionB, 365, 1],
      ]),
    );
    expect(await linesOf(request)).toEqual({
      items: [
        { optionId: optionA, duration: 30, quantity: 2 },
        { optionId: optionB, duration: 365, quantity: 1 },
      ],
      setCookies: [],
    });
  });

  it("keeps one line per option", async () => {
    const request = requestWith(
      await cartCookie.serialize([
        [optionA, 30, 1],
        [optionA, 90, 3],
      ]),
    );
    expect((await linesOf(request)).items).toEqual([{ optionId: optionA, duration: 90, quantity: 3 }]);
  });

  it("is an empty cart, and nothing to replace, when there is no cookie", async () => {
    expect(await linesOf(new Request("http://store.test/"))).toEqual({ items: [], setCookies: [] });
  });

  it("treats a tampered or malformed cookie as an empty cart and replaces it", async () => {
    const header = await cartCookie.serialize([[optionA, 30, 2]]);
    const signature = header.split(";")[0].split(".")[1];
    const forgedValue = Buffer.from(JSON.stringify([[optionA, 30, 999]])).toString("base64");
    const tampered = new Request("http://store.test/", {
      headers: { cookie: `cart=${encodeURIComponent(forgedValue)}.${signature}` },
    });
    const result = await linesOf(tampered);
    expect(result.items).toEqual([]);
    expect(result.setCookies).toEqual([expect.stringMatching(/^cart=/)]);
    expect((await linesOf(requestWith(result.setCookies[0]))).items).toEqual([]);

    for (const lines of [{}, "[]", [[optionA, 30, 0]], [[optionA, 30, 1000]], [[optionA, -1, 1]], [["short", 30, 1]]]) {
      // Signed by us but not a cart: a value we never write.
      const odd = await cartCookie.serialize(lines as never);
      expect((await linesOf(requestWith(odd))).items).toEqual([]);
    }
  });

  it("holds at most the cart line limit and stays well under the 4 KB cookie limit", async () => {
    const lines = Array.from({ length: CART_LINE_LIMIT + 1 }, (_, index): [string, number, number] => [
      `${String(index).padStart(2, "0")}${"x".repeat(20)}`,
      365,
      999,
    ]);
    const full = await cartCookie.serialize(lines.slice(0, CART_LINE_LIMIT));
    expect(full.length).toBeLessThan(4096);
    expect((await linesOf(requestWith(full))).items).toHaveLength(CART_LINE_LIMIT);
    expect((await linesOf(requestWith(await cartCookie.serialize(lines)))).items).toEqual([]);
  });

  it("empties the cookie once its lines moved into an account", async () => {
    const emptied = await cartFor(new Request("http://store.test/"), context).emptyCookie();
    expect(await cartCookie.read(requestWith(emptied))).toEqual([]);
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
