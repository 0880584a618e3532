import { createHash } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import {
  type CartQuote,
  type PricedLine,
  cartQuoteSchema,
  cartSchema,
  reclaimedLinesSchema,
} from "../../contract/answers/cart";
import { CART_LINE_LIMIT, QUANTITY_LIMIT } from "../../contract/order";
import { apiCall, ApiUnavailableError } from "./api.server";
import { cookiesOf, type StoredCartLines } from "./cookies.server";

/*
 * The cart of a page request, whoever holds it (as Hydrogen's context.cart): a guest's lives in the
 * signed `cart` cookie, which holds only ids, durations and quantities, and is priced by
 * POST /v1/cart/quote; a signed-in customer's lives on the server (/v1/cart/*), in the same shape.
 */

export type CartItem = { optionId: string; duration: number; quantity: number };

/** The cookie's lines as items, one per option (the last wins). */
function itemsFromStored(lines: StoredCartLines): CartItem[] {
  const byOption = new Map<string, CartItem>();
  for (const [optionId, duration, quantity] of lines) byOption.set(optionId, { optionId, duration, quantity });
  return [...byOption.values()];
}

function storedFromItems(items: CartItem[]): StoredCartLines {
  return items.slice(0, CART_LINE_LIMIT).map((item) => [item.optionId, item.duration, item.quantity]);
}

/** Adding an option already in the cart replaces its duration and adds to its quantity. */
export function mergeCartItem(items: CartItem[], added: CartItem): CartItem[] {
  const existing = items.find((item) => item.optionId === added.optionId);
  if (!existing) return [...items, added];
  return items.map((item) =>
    item.optionId === added.optionId
      ? { ...item, duration: added.duration, quantity: Math.min(item.quantity + added.quantity, QUANTITY_LIMIT) }
      : item,
  );
}

export type QuotedLine = PricedLine;
export type { CartQuote };

export const EMPTY_QUOTE: CartQuote = { cartItems: [], cartPrice: 0, dropped: [] };

export async function quoteCart(context: AppLoadContext, items: CartItem[]): Promise<CartQuote> {
  if (items.length === 0) return EMPTY_QUOTE;
  const result = await apiCall(context, {
    path: "/v1/cart/quote",
    body: { cartItems: items },
    answer: cartQuoteSchema,
  });
  if (!result.ok)
    throw new ApiUnavailableError(`/v1/cart/quote answered ${result.status}: ${result.message}`, result.status);
  return result.payload;
}

/** The cart as the API normalized it: dropped lines gone, quantities clamped. */
export function itemsFromQuote(quote: CartQuote): CartItem[] {
  return quote.cartItems.map((line) => ({
    optionId: line.option._id,
    duration: line.duration,
    quantity: line.quantity,
  }));
}

function sameItems(a: CartItem[], b: CartItem[]): boolean {
  return (
    a.length === b.length &&
    a.every((item, index) => {
      const other = b[index];
      return item.optionId === other.optionId && item.duration === other.duration && item.quantity === other.quantity;
    })
  );
}

/**
 * A change's outcome: the Set-Cookie headers to send, the refusal's message when it was refused, and a
 * notice when it was made otherwise than asked (a quantity clamped to what can be ordered).
 */
export type CartChange = { refusal: string | null; notice?: string; headers: Headers };

/** Said whenever a quantity was lowered to the most that can be ordered: the box and the line then agree. */
export const clampedNotice = (quantity: number) =>
  `Only ${quantity} can be ordered of this plan: the quantity is now ${quantity}.`;

export type StoreCart = {
  /** The priced cart, and the Set-Cookie that brings the cookie in line with it (untrusted, dropped lines, clamped quantities). */
  read(): Promise<{ quote: CartQuote; headers: Headers }>;
  /** Adds a line, or adds to the quantity of the option's line and takes the new duration. */
  add(item: CartItem): Promise<CartChange>;
  /** Sets a line's quantity; the API clamps it into the line's bounds. */
  update(line: { optionId: string; quantity: number }): Promise<CartChange>;
  remove(optionId: string): Promise<CartChange>;
  clear(): Promise<CartChange>;
  /**
   * A guest's lines: the cookie's, with those of the guest's order that ended unpaid taken back (ADR 019);
   * `setCookies` replaces a cookie we could not trust, stores the lines taken back and forgets that order.
   * None for a signed-in request: a customer's cart is the server cart alone (ADR 052).
   */
  cookieLines(): Promise<{ items: CartItem[]; setCookies: string[] }>;
  /**
   * Set-Cookies that end every guest-cart cookie this request carries (the lines, the unpaid order, the
   * coupon): sent with a sign-in, once the guest's lines joined the account, and with a sign-out.
   */
  endGuestCart(): Promise<string[]>;
  /**
   * Names this request's guest cart: a digest of the guest-cart cookies exactly as sent (signed values, so a
   * client cannot pick another cart's). Sign-ins posted with the same cookies share it, so their merge runs once.
   */
  guestCartKey(): string;
  /** A Set-Cookie that empties the cookie cart, once a guest checkout ordered its lines. */
  emptyCookie(): Promise<string>;
  /** A Set-Cookie that remembers the guest's order waiting for payment, whose lines come back if it ends unpaid. */
  rememberUnpaidOrder(orderId: string): Promise<string>;
};

const withCookie = (...setCookies: (string | undefined)[]) => {
  const headers = new Headers();
  for (const setCookie of setCookies) if (setCookie) headers.append("Set-Cookie", setCookie);
  return headers;
};

const accepted = (setCookie?: string, notice?: string): CartChange => ({
  refusal: null,
  notice,
  headers: withCookie(setCookie),
});
const refused = (refusal: string, setCookie?: string): CartChange => ({ refusal, headers: withCookie(setCookie) });

function guestCartKeyOf(request: Request, names: string[]): string {
  const sent = (request.headers.get("Cookie") ?? "")
    .split(";")
    .map((pair) => pair.trim())
    .filter((pair) => names.some((name) => pair.startsWith(`${name}=`)))
    .sort();
  return `guest-cart:${createHash("sha256").update(sent.join("\n")).digest("base64url")}`;
}

/** The cart of this request: the customer's server cart with a session, else the guest's cookie cart. */
export function cartFor(request: Request, context: AppLoadContext): StoreCart {
  const { cart: cookie, unpaidOrder, coupon } = cookiesOf(context);
  const signedIn = cookiesOf(context)
    .token.read(request)
    .then((token) => token !== undefined);
  const store = (items: CartItem[]) => cookie.serialize(storedFromItems(items));

  /** The lines of the guest's order once it ended unpaid, and whether to forget the order (it ended, or is unknown). */
  async function linesOfUnpaidOrder(): Promise<{ items: CartItem[]; forget: boolean }> {
    if (!unpaidOrder.sent(request)) return { items: [], forget: false };
    const orderId = await unpaidOrder.read(request);
    if (!orderId) return { items: [], forget: true };
    const answer = await apiCall(context, {
      path: "/v1/cart/reclaim",
      body: { orderId },
      answer: reclaimedLinesSchema,
    });
    // Rate limited or unavailable: the cart shows what it holds, and the next page asks again.
    if (!answer.ok) return { items: [], forget: answer.status === 404 || answer.status === 400 };
    return { items: answer.payload.cartItems, forget: answer.payload.status !== "pending" };
  }

  async function readCookieLines() {
    const [returned, stored] = await Promise.all([
      linesOfUnpaidOrder(),
      cookie.sent(request) ? cookie.read(request) : Promise.resolve(undefined),
    ]);
    let items = stored ? itemsFromStored(stored) : [];
    // A cookie that was sent but could not be read is replaced.
    let rewrite = cookie.sent(request) && !stored;
    // Lines the shopper added again since keep their choice; the order's other lines come back.
    const missing = returned.items.filter((line) => !items.some((item) => item.optionId === line.optionId));
    if (missing.length > 0) {
      items = [...items, ...missing].slice(0, CART_LINE_LIMIT);
      rewrite = true;
    }
    const setCookies = [
      ...(rewrite ? [await store(items)] : []),
      ...(returned.forget ? [await unpaidOrder.clear()] : []),
    ];
    return { items, setCookies };
  }
  // Asked once per request: the root and the page may both read the cart.
  let cookieLinesOnce: ReturnType<typeof readCookieLines> | undefined;
  const cookieLines = () =>
    (cookieLinesOnce ??= signedIn.then((customer) => (customer ? { items: [], setCookies: [] } : readCookieLines())));

  async function endGuestCart(): Promise<string[]> {
    const sent = [cookie, unpaidOrder, coupon].filter((guestCookie) => guestCookie.sent(request));
    return Promise.all(sent.map((guestCookie) => guestCookie.clear()));
  }

  /** A change to the server cart; the API applies the same bounds and stock rules as a quote. */
  async function changeServerCart(call: Pick<Parameters<typeof apiCall>[1], "method" | "path" | "body">) {
    const answer = await apiCall(context, { ...call, request, answer: cartSchema });
    return answer.ok ? accepted() : refused(answer.message);
  }

  /** The server cart; null when the API no longer accepts the session (the cookie cart stands in then). */
  async function readServerCart(): Promise<CartQuote | null> {
    const result = await apiCall(context, { path: "/v1/cart/read", request, answer: cartSchema });
    if (result.ok) return { ...result.payload, dropped: [] };
    if (result.status === 401) return null;
    throw new ApiUnavailableError(`/v1/cart/read answered ${result.status}: ${result.message}`, result.status);
  }

  async function readCookieCart() {
    const { items, setCookies } = await cookieLines();
    const quote = await quoteCart(context, items);
    const normalized = itemsFromQuote(quote);
    if (sameItems(items, normalized)) return { quote, headers: withCookie(...setCookies) };
    const others = setCookies.filter((setCookie) => !setCookie.startsWith(`${cookie.name}=`));
    return { quote, headers: withCookie(...others, await store(normalized)) };
  }

  return {
    async read() {
      const serverCart = (await signedIn) ? await readServerCart() : null;
      if (!serverCart) return readCookieCart();
      // Guest-cart cookies beside a session are left from before ADR 052: they never join this cart.
      const leftovers = (await endGuestCart()).filter((setCookie) => !setCookie.startsWith(`${coupon.name}=`));
      return { quote: serverCart, headers: withCookie(...leftovers) };
    },

    async add(added) {
      if (await signedIn) {
        const answer = await apiCall(context, {
          path: "/v1/cart/add",
          body: added,
          request,
          answer: cartSchema,
        });
        if (!answer.ok) return refused(answer.message);
        const line = answer.payload.cartItems.find((candidate) => candidate.option._id === added.optionId);
        return accepted(undefined, line && line.quantity < added.quantity ? clampedNotice(line.quantity) : undefined);
      }
      const { items } = await cookieLines();
      const merged = mergeCartItem(items, added);
      if (merged.length > CART_LINE_LIMIT) return refused(`Your cart holds at most ${CART_LINE_LIMIT} items`);
      const quote = await quoteCart(context, merged);
      if (quote.dropped.includes(added.optionId)) {
        return refused("This option is no longer available", await store(itemsFromQuote(quote)));
      }
      const line = quote.cartItems.find((candidate) => candidate.option._id === added.optionId);
      if (line?.soldOut) {
        const wasInCart = items.some((item) => item.optionId === added.optionId);
        const kept = itemsFromQuote(quote).filter((item) => wasInCart || item.optionId !== added.optionId);
        return refused("This option is out of stock", await store(kept));
      }
      const asked = merged.find((item) => item.optionId === added.optionId)?.quantity ?? added.quantity;
      const notice = line && line.quantity < asked ? clampedNotice(line.quantity) : undefined;
      return accepted(await store(itemsFromQuote(quote)), notice);
    },

    async update({ optionId, quantity }) {
      if (await signedIn)
        return changeServerCart({ method: "PUT", path: "/v1/cart/update", body: { optionId, quantity } });
      const { items } = await cookieLines();
      const updated = items.map((item) => (item.optionId === optionId ? { ...item, quantity } : item));
      const quote = await quoteCart(context, updated);
      const line = quote.cartItems.find((candidate) => candidate.option._id === optionId);
      const notice = line && line.quantity < quantity ? clampedNotice(line.quantity) : undefined;
      return accepted(await store(itemsFromQuote(quote)), notice);
    },

    async remove(optionId) {
      if (await signedIn) return changeServerCart({ method: "DELETE", path: `/v1/cart/remove/${optionId}` });
      const { items } = await cookieLines();
      return accepted(await store(items.filter((item) => item.optionId !== optionId)));
    },

    async clear() {
      if (await signedIn) return changeServerCart({ path: "/v1/cart/clear", body: {} });
      return accepted(await store([]));
    },

    cookieLines,
    endGuestCart,
    guestCartKey: () => guestCartKeyOf(request, [cookie.name, unpaidOrder.name]),
    emptyCookie: () => store([]),
    rememberUnpaidOrder: (orderId) => unpaidOrder.serialize(orderId),
  };
}
