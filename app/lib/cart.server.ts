import { type AppLoadContext, type Cookie, createCookie } from "@remix-run/node";
import { z } from "zod";
import { processConfiguration } from "../../api/config";
import { apiCall, ApiUnavailableError } from "./api.server";
import { QUANTITY_LIMIT } from "./cart-client";
import { subOptionSchema } from "./catalogue.server";

/*
 * The guest cart lives in a signed cookie that holds only ids, durations and quantities:
 * prices, titles and stock always come from POST /v1/cart/quote.
 */

export const CART_LINE_LIMIT = 50;

export type CartItem = { optionId: string; duration: number; quantity: number };

/* Stored as [optionId, duration, quantity] tuples: 50 lines stay well under the 4 KB cookie limit. */
const storedCartSchema = z
  .array(
    z.tuple([
      z.string().regex(/^[A-Za-z0-9_-]{22}$/),
      z.number().int().positive().max(36_500),
      z.number().int().min(1).max(QUANTITY_LIMIT),
    ]),
  )
  .max(CART_LINE_LIMIT);

/** The cart items in a cookie value, or null when the value is not a cart we wrote (tampered, foreign, oversized). */
export function parseStoredCart(value: unknown): CartItem[] | null {
  const parsed = storedCartSchema.safeParse(value);
  if (!parsed.success) return null;
  const byOption = new Map<string, CartItem>();
  for (const [optionId, duration, quantity] of parsed.data) byOption.set(optionId, { optionId, duration, quantity });
  return [...byOption.values()];
}

function storedCart(items: CartItem[]) {
  return items.slice(0, CART_LINE_LIMIT).map((item) => [item.optionId, item.duration, item.quantity]);
}

export function createCartCookie(secrets: string[], secure: boolean): Cookie {
  return createCookie("cart", {
    secrets,
    httpOnly: true,
    sameSite: "lax",
    secure,
    path: "/",
    maxAge: 60 * 60 * 24 * 30,
  });
}

let processCartCookie: Cookie | undefined;
function cartCookie(): Cookie {
  if (!processCartCookie) {
    const config = processConfiguration();
    // Secure whenever the store is served over https; plain-http local runs would lose the cookie otherwise.
    processCartCookie = createCartCookie(config.sessionSecrets, config.publicUrl.startsWith("https://"));
  }
  return processCartCookie;
}

export type CartFromCookie = {
  items: CartItem[];
  /** Set-Cookie that replaces a cookie we could not trust; undefined when there is nothing to replace. */
  replaceHeader: string | undefined;
};

export async function readCartItems(request: Request, cookie: Cookie = cartCookie()): Promise<CartFromCookie> {
  const header = request.headers.get("cookie");
  if (!header || !/(?:^|;\s*)cart=/.test(header)) return { items: [], replaceHeader: undefined };
  const items = parseStoredCart(await cookie.parse(header).catch(() => null));
  if (items) return { items, replaceHeader: undefined };
  return { items: [], replaceHeader: await cookie.serialize([]) };
}

export function serializeCart(items: CartItem[], cookie: Cookie = cartCookie()): Promise<string> {
  return cookie.serialize(storedCart(items));
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

const quotedLineSchema = z.object({
  quantity: z.number().int(),
  duration: z.number().int(),
  price: z.number(),
  soldOut: z.boolean(),
  option: z.object({
    _id: z.string(),
    title: z.string(),
    availableStock: z.number().int(),
    subOptions: z.array(subOptionSchema),
    product: z.object({
      _id: z.string(),
      title: z.string(),
      picture: z
        .string()
        .nullish()
        .transform((value) => value ?? ""),
      minQuantity: z.number().int(),
      maxQuantity: z.number().int().nullable(),
    }),
  }),
});
export type QuotedLine = z.infer<typeof quotedLineSchema>;

const quoteSchema = z.object({
  cartItems: z.array(quotedLineSchema),
  cartPrice: z.number(),
  dropped: z.array(z.string()),
});
export type CartQuote = z.infer<typeof quoteSchema>;

export const EMPTY_QUOTE: CartQuote = { cartItems: [], cartPrice: 0, dropped: [] };

export async function quoteCart(context: AppLoadContext, items: CartItem[]): Promise<CartQuote> {
  if (items.length === 0) return EMPTY_QUOTE;
  const result = await apiCall(context, { path: "/v1/cart/quote", body: { cartItems: items }, payload: quoteSchema });
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
 * The quoted cart of this request, plus the Set-Cookie that brings the cookie in line with the quote
 * (an untrusted cookie, dropped options, clamped quantities); undefined when the cookie is already right.
 */
export async function loadQuotedCart(
  context: AppLoadContext,
  request: Request,
): Promise<{ quote: CartQuote; setCookie: string | undefined }> {
  const { items, replaceHeader } = await readCartItems(request);
  const quote = await quoteCart(context, items);
  const normalized = itemsFromQuote(quote);
  if (!sameItems(items, normalized)) return { quote, setCookie: await serializeCart(normalized) };
  return { quote, setCookie: replaceHeader };
}

/*
 * A signed-in customer's cart lives on the server (/v1/cart/*), in the same shape as a quote.
 * When the server cart cannot be read (a session the API no longer accepts), the cookie cart stands in.
 */
const serverCartSchema = z.object({ cartItems: z.array(quotedLineSchema), cartPrice: z.number() });

async function readServerCart(context: AppLoadContext, request: Request): Promise<CartQuote | null> {
  const result = await apiCall(context, { path: "/v1/cart/read", request, payload: serverCartSchema });
  if (result.ok) return { ...result.payload, dropped: [] };
  if (result.status === 401) return null;
  throw new ApiUnavailableError(`/v1/cart/read answered ${result.status}: ${result.message}`, result.status);
}

/** The cart of this request: the server cart when signed in, else the quoted cookie cart (see loadQuotedCart). */
export async function loadCart(
  context: AppLoadContext,
  request: Request,
  signedIn: boolean,
): Promise<{ quote: CartQuote; setCookie: string | undefined }> {
  const serverCart = signedIn ? await readServerCart(context, request) : null;
  return serverCart ? { quote: serverCart, setCookie: undefined } : loadQuotedCart(context, request);
}

export type CartCommand =
  | { intent: "add"; optionId: string; duration: number; quantity: number }
  | { intent: "update"; optionId: string; quantity: number }
  | { intent: "remove"; optionId: string }
  | { intent: "clear" };

/** One cart form's change applied to the signed-in customer's server cart; a refusal carries the API's message. */
export function changeServerCart(context: AppLoadContext, request: Request, command: CartCommand) {
  const answer = z.unknown();
  switch (command.intent) {
    case "add": {
      const { optionId, duration, quantity } = command;
      return apiCall(context, {
        path: "/v1/cart/add",
        request,
        body: { optionId, duration, quantity },
        payload: answer,
      });
    }
    case "update": {
      const { optionId, quantity } = command;
      return apiCall(context, {
        method: "PUT",
        path: "/v1/cart/update",
        request,
        body: { optionId, quantity },
        payload: answer,
      });
    }
    case "remove":
      return apiCall(context, {
        method: "DELETE",
        path: `/v1/cart/remove/${command.optionId}`,
        request,
        payload: answer,
      });
    case "clear":
      return apiCall(context, { path: "/v1/cart/clear", request, body: {}, payload: answer });
  }
}
