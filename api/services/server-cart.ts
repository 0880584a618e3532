import { and, asc, count, eq, inArray } from "drizzle-orm";
import type { Executor } from "../db/client";
import { cartItems, carts } from "../db/schema";
import { badRequest, conflict, notFound } from "../errors";
import { type CartItemInput, type QuotedLine, quoteCart } from "./cart";
import { QUANTITY_LIMIT } from "../../contract/order";
import { loadPricedOptions } from "./catalogue";

/** The most lines one cart may hold (as the guest cookie cart). */
export const SERVER_CART_MAX_LINES = 50;

export type ServerCart = {
  cartItems: QuotedLine[];
  /** USD. */
  cartPrice: number;
  cartPriceCents: number;
};

export const CART_MESSAGES = {
  added: "Product added to cart",
  optionNotFound: "Option not found",
  durationMissing: "Please select a warranty option",
  soldOut: "This option is out of stock",
  notInCart: "This item is not in your cart",
  full: `A cart holds at most ${SERVER_CART_MAX_LINES} lines`,
} as const;

/**
 * The user's cart id, creating the cart on first use (safe when two requests race). Read first: every cart
 * call but a customer's very first finds it in one statement, and writes nothing.
 */
export async function cartIdFor(db: Executor, userId: string): Promise<string> {
  const existing = async () => (await db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId)))[0];
  const found = await existing();
  if (found) return found.id;
  await db.insert(carts).values({ userId }).onConflictDoNothing({ target: carts.userId });
  return (await existing()).id;
}

async function storedLines(db: Executor, cartId: string): Promise<CartItemInput[]> {
  const rows = await db
    .select({ optionId: cartItems.optionId, duration: cartItems.durationDays, quantity: cartItems.quantity })
    .from(cartItems)
    .where(eq(cartItems.cartId, cartId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.optionId));
  return rows;
}

/**
 * The cart priced now by quoteCart, the one pricing rule of the store. Lines whose option or
 * duration has gone from the shop are removed, so they cannot come back at checkout.
 */
export async function readServerCart(db: Executor, userId: string): Promise<ServerCart & { stored: CartItemInput[] }> {
  const cartId = await cartIdFor(db, userId);
  const stored = await storedLines(db, cartId);
  const quote = await quoteCart(db, stored);
  if (quote.dropped.length > 0) {
    await db.delete(cartItems).where(and(eq(cartItems.cartId, cartId), inArray(cartItems.optionId, quote.dropped)));
  }
  const kept = stored.filter((line) => !quote.dropped.includes(line.optionId));
  return { cartItems: quote.cartItems, cartPrice: quote.cartPrice, cartPriceCents: quote.cartPriceCents, stored: kept };
}

type Bounds = { minQuantity: number; ceiling: number; availableStock: number; maxQuantity: number | null };

async function optionBounds(db: Executor, optionId: string, duration?: number): Promise<Bounds> {
  const [option] = await loadPricedOptions(db, { optionIds: [optionId] });
  if (!option) throw notFound(CART_MESSAGES.optionNotFound);
  if (duration !== undefined && !option.priceCentsByDuration.has(duration)) {
    throw badRequest(CART_MESSAGES.durationMissing, { duration: [CART_MESSAGES.durationMissing] });
  }
  const { minQuantity, maxQuantity } = option.product;
  const ceiling = Math.min(maxQuantity ?? QUANTITY_LIMIT, option.availableStock);
  if (ceiling < minQuantity) throw conflict(CART_MESSAGES.soldOut);
  return { minQuantity, ceiling, availableStock: option.availableStock, maxQuantity };
}

const clamp = (quantity: number, bounds: Bounds) => Math.min(Math.max(quantity, bounds.minQuantity), bounds.ceiling);

/** A new line needs room in the cart; a line already there is only changed. */
async function assertRoomForNewLine(db: Executor, cartId: string): Promise<void> {
  const [lines] = await db.select({ lines: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
  if (Number(lines.lines) >= SERVER_CART_MAX_LINES) throw badRequest(CART_MESSAGES.full);
}

/**
 * Adds to the line of that option: the same duration adds up, another duration replaces the line
 * (one line per option, as the spec removes lines by optionId). The result is clamped into the bounds.
 */
export async function addToServerCart(
  db: Executor,
  userId: string,
  item: CartItemInput,
): Promise<{ quantity: number }> {
  const bounds = await optionBounds(db, item.optionId, item.duration);
  return db.transaction(async (tx) => {
    const cartId = await cartIdFor(tx, userId);
    const [existing] = await tx
      .select({ duration: cartItems.durationDays, quantity: cartItems.quantity })
      .from(cartItems)
      .where(and(eq(cartItems.cartId, cartId), eq(cartItems.optionId, item.optionId)))
      .for("update");
    if (!existing) await assertRoomForNewLine(tx, cartId);
    const wanted = existing && existing.duration === item.duration ? existing.quantity + item.quantity : item.quantity;
    const quantity = clamp(wanted, bounds);
    await tx
      .insert(cartItems)
      .values({ cartId, optionId: item.optionId, durationDays: item.duration, quantity })
      .onConflictDoUpdate({
        target: [cartItems.cartId, cartItems.optionId],
        set: { durationDays: item.duration, quantity },
      });
    await tx.update(carts).set({ updatedAt: new Date() }).where(eq(carts.id, cartId));
    return { quantity };
  });
}

/** Sets a line's quantity; outside the product's bounds or the stock it is refused with the limit. */
export async function updateServerCartLine(
  db: Executor,
  userId: string,
  input: { optionId: string; quantity: number },
): Promise<void> {
  const cartId = await cartIdFor(db, userId);
  const [line] = await db
    .select({ duration: cartItems.durationDays })
    .from(cartItems)
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.optionId, input.optionId)));
  if (!line) throw notFound(CART_MESSAGES.notInCart);
  const bounds = await optionBounds(db, input.optionId);
  if (input.quantity < bounds.minQuantity) {
    throw badRequest(`The minimum quantity for this product is ${bounds.minQuantity}`);
  }
  if (bounds.maxQuantity !== null && input.quantity > bounds.maxQuantity) {
    throw badRequest(`The maximum quantity for this product is ${bounds.maxQuantity}`);
  }
  if (input.quantity > bounds.ceiling) throw conflict(`Only ${bounds.ceiling} left in stock`);
  await db
    .update(cartItems)
    .set({ quantity: input.quantity })
    .where(and(eq(cartItems.cartId, cartId), eq(cartItems.optionId, input.optionId)));
}

/** Removing a line that is not there is not an error: the cart ends as the client wants it. */
export async function removeFromServerCart(db: Executor, userId: string, optionId: string): Promise<void> {
  const cartId = await cartIdFor(db, userId);
  await db.delete(cartItems).where(and(eq(cartItems.cartId, cartId), eq(cartItems.optionId, optionId)));
}

export async function clearServerCart(db: Executor, userId: string): Promise<void> {
  const cartId = await cartIdFor(db, userId);
  await db.delete(cartItems).where(eq(cartItems.cartId, cartId));
  await db.update(carts).set({ couponCode: null, updatedAt: new Date() }).where(eq(carts.id, cartId));
}

/**
 * Writes a guest's cookie lines as they are into a new account's empty cart, for guest checkout in one
 * transaction: the order then checks their stock. Answers how many lines the shop no longer sells
 * (unknown option or duration), which the caller refuses rather than silently dropping.
 */
export async function fillServerCart(
  tx: Executor,
  userId: string,
  lines: CartItemInput[],
): Promise<{ unavailable: number }> {
  const byOption = new Map(lines.map((line) => [line.optionId, line]));
  const options = byOption.size === 0 ? [] : await loadPricedOptions(tx, { optionIds: [...byOption.keys()] });
  const sellable = [...byOption.values()].filter((line) =>
    options.some((option) => option._id === line.optionId && option.priceCentsByDuration.has(line.duration)),
  );
  if (sellable.length > 0) {
    const cartId = await cartIdFor(tx, userId);
    await tx.insert(cartItems).values(
      sellable.map((line) => ({
        cartId,
        optionId: line.optionId,
        durationDays: line.duration,
        quantity: line.quantity,
      })),
    );
  }
  return { unavailable: byOption.size - sellable.length };
}

/** Puts an order's lines back into the customer's cart; a line the customer has added again since wins. */
export async function returnLinesToServerCart(tx: Executor, userId: string, lines: CartItemInput[]): Promise<void> {
  if (lines.length === 0) return;
  const cartId = await cartIdFor(tx, userId);
  await tx
    .insert(cartItems)
    .values(
      lines.map((line) => ({ cartId, optionId: line.optionId, durationDays: line.duration, quantity: line.quantity })),
    )
    .onConflictDoNothing();
}

/** Removes an order's lines (same option and duration) from a cart: they moved to the browser's cookie cart. */
export async function takeLinesFromServerCart(tx: Executor, userId: string, lines: CartItemInput[]): Promise<void> {
  const [cart] = await tx.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));
  if (!cart) return;
  for (const line of lines) {
    await tx
      .delete(cartItems)
      .where(
        and(
          eq(cartItems.cartId, cart.id),
          eq(cartItems.optionId, line.optionId),
          eq(cartItems.durationDays, line.duration),
        ),
      );
  }
}

/**
 * Adds the guest cookie cart's lines at sign-in, in one transaction. Lines the shop cannot sell
 * (unknown option or duration, sold out) are skipped and listed, not refused: the cookie is
 * cleared after the merge, and one stale line must not lose the others.
 */
export async function mergeIntoServerCart(
  db: Executor,
  userId: string,
  lines: CartItemInput[],
): Promise<{ skipped: string[] }> {
  const options =
    lines.length === 0 ? [] : await loadPricedOptions(db, { optionIds: lines.map((line) => line.optionId) });
  const byId = new Map(options.map((option) => [option._id, option]));
  const skipped: string[] = [];
  await db.transaction(async (tx) => {
    const cartId = await cartIdFor(tx, userId);
    for (const line of lines) {
      const option = byId.get(line.optionId);
      const ceiling = option ? Math.min(option.product.maxQuantity ?? QUANTITY_LIMIT, option.availableStock) : 0;
      if (!option || !option.priceCentsByDuration.has(line.duration) || ceiling < option.product.minQuantity) {
        skipped.push(line.optionId);
        continue;
      }
      const bounds: Bounds = {
        minQuantity: option.product.minQuantity,
        ceiling,
        availableStock: option.availableStock,
        maxQuantity: option.product.maxQuantity,
      };
      const [existing] = await tx
        .select({ duration: cartItems.durationDays, quantity: cartItems.quantity })
        .from(cartItems)
        .where(and(eq(cartItems.cartId, cartId), eq(cartItems.optionId, line.optionId)))
        .for("update");
      if (!existing) {
        const [lineCount] = await tx.select({ lines: count() }).from(cartItems).where(eq(cartItems.cartId, cartId));
        if (Number(lineCount.lines) >= SERVER_CART_MAX_LINES) {
          skipped.push(line.optionId);
          continue;
        }
      }
      const wanted =
        existing && existing.duration === line.duration ? existing.quantity + line.quantity : line.quantity;
      const quantity = clamp(wanted, bounds);
      await tx
        .insert(cartItems)
        .values({ cartId, optionId: line.optionId, durationDays: line.duration, quantity })
        .onConflictDoUpdate({
          target: [cartItems.cartId, cartItems.optionId],
          set: { durationDays: line.duration, quantity },
        });
    }
  });
  return { skipped };
}

/** Remembers the last applied coupon code with the cart (null resets it). */
export async function rememberCartCoupon(db: Executor, userId: string, code: string | null): Promise<void> {
  const cartId = await cartIdFor(db, userId);
  await db.update(carts).set({ couponCode: code, updatedAt: new Date() }).where(eq(carts.id, cartId));
}
