import { and, asc, count, eq, inArray, sql } from "drizzle-orm";
import { type Executor, prepared } from "../../db/client";
import { cartItems, carts } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { type CartItemInput, type QuotedLine, priceCart } from "./quote";
import { QUANTITY_LIMIT } from "../../../contract/order";
import { type PricedOption, loadPricedOptions } from "../catalogue/shop";

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

/**
 * The cart's lines, oldest first, found by the customer in one statement (none when there is no cart yet);
 * `locked`: row-locked until the transaction ends, as a change of a line locks it.
 */
async function storedLines(db: Executor, userId: string, { locked = false } = {}): Promise<CartItemInput[]> {
  const lines = db
    .select({ optionId: cartItems.optionId, duration: cartItems.durationDays, quantity: cartItems.quantity })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(eq(carts.userId, userId))
    .orderBy(asc(cartItems.addedAt), asc(cartItems.optionId));
  return locked ? prepared(lines.for("update", { of: cartItems }), "locked_cart_lines") : prepared(lines, "cart_lines");
}

export type StoredServerCart = ServerCart & {
  stored: CartItemInput[];
  /** The options the lines were priced from, with what an order keeps of them when asked (`forOrder`). */
  options: PricedOption[];
};

/**
 * The cart priced now by quoteCart, the one pricing rule of the store. Lines whose option or
 * duration has gone from the shop are removed, so they cannot come back at checkout.
 */
export async function readServerCart(
  db: Executor,
  userId: string,
  { forOrder = false } = {},
): Promise<StoredServerCart> {
  const stored = await storedLines(db, userId);
  const optionIds = [...new Set(stored.map((line) => line.optionId))];
  const options =
    optionIds.length === 0 ? [] : await loadPricedOptions(db, { optionIds }, { withOrderTexts: forOrder });
  return pricedServerCart(db, userId, stored, options);
}

/** The stored lines priced from these options; lines the shop no longer sells are removed from the cart. */
async function pricedServerCart(
  db: Executor,
  userId: string,
  stored: CartItemInput[],
  options: PricedOption[],
): Promise<StoredServerCart> {
  const quote = priceCart(options, stored);
  if (quote.dropped.length > 0) {
    await db
      .delete(cartItems)
      .where(and(inArray(cartItems.cartId, cartIdOf(db, userId)), inArray(cartItems.optionId, quote.dropped)));
  }
  const kept = stored.filter((line) => !quote.dropped.includes(line.optionId));
  return {
    cartItems: quote.cartItems,
    cartPrice: quote.cartPrice,
    cartPriceCents: quote.cartPriceCents,
    stored: kept,
    options,
  };
}

/** The customer's cart id, as a subquery. */
const cartIdOf = (db: Executor, userId: string) =>
  db.select({ id: carts.id }).from(carts).where(eq(carts.userId, userId));

type Bounds = { minQuantity: number; ceiling: number; availableStock: number; maxQuantity: number | null };

function boundsOf(option: PricedOption | undefined, duration?: number): Bounds {
  if (!option) throw notFound(CART_MESSAGES.optionNotFound);
  if (duration !== undefined && !option.priceCentsByDuration.has(duration)) {
    throw badRequest(CART_MESSAGES.durationMissing, { duration: [CART_MESSAGES.durationMissing] });
  }
  const { minQuantity, maxQuantity } = option.product;
  const ceiling = Math.min(maxQuantity ?? QUANTITY_LIMIT, option.availableStock);
  if (ceiling < minQuantity) throw conflict(CART_MESSAGES.soldOut);
  return { minQuantity, ceiling, availableStock: option.availableStock, maxQuantity };
}

async function optionBounds(db: Executor, optionId: string, duration?: number): Promise<Bounds> {
  const [option] = await loadPricedOptions(db, { optionIds: [optionId] });
  return boundsOf(option, duration);
}

const clamp = (quantity: number, bounds: Bounds) => Math.min(Math.max(quantity, bounds.minQuantity), bounds.ceiling);

/**
 * The customer's cart, touched (updated_at) and so row-locked until the transaction ends: one customer's
 * cart changes take turns. Made on first use.
 */
async function lockedCartId(tx: Executor, userId: string): Promise<string> {
  const now = new Date();
  const [touched] = await prepared(
    tx.update(carts).set({ updatedAt: now }).where(eq(carts.userId, userId)).returning({ id: carts.id }),
    "touch_cart",
  );
  if (touched) return touched.id;
  const [made] = await tx
    .insert(carts)
    .values({ userId, updatedAt: now })
    .onConflictDoUpdate({ target: carts.userId, set: { updatedAt: now } })
    .returning({ id: carts.id });
  return made.id;
}

/**
 * Adds to the line of that option: the same duration adds up, another duration replaces the line
 * (one line per option, as the spec removes lines by optionId). The result is clamped into the bounds.
 * Answers the cart after the change, priced from the options read for it: the cart, its lines and their
 * options are each read once.
 */
export async function addToServerCart(db: Executor, userId: string, item: CartItemInput): Promise<StoredServerCart> {
  return db.transaction(async (tx) => {
    const cartId = await lockedCartId(tx, userId);
    const stored = await storedLines(tx, userId, { locked: true });
    const optionIds = [...new Set([item.optionId, ...stored.map((line) => line.optionId)])];
    const options = await loadPricedOptions(tx, { optionIds });
    const bounds = boundsOf(
      options.find((option) => option._id === item.optionId),
      item.duration,
    );
    const existing = stored.find((line) => line.optionId === item.optionId);
    // A new line needs room in the cart; a line already there is only changed.
    if (!existing && stored.length >= SERVER_CART_MAX_LINES) throw badRequest(CART_MESSAGES.full);
    const wanted = existing && existing.duration === item.duration ? existing.quantity + item.quantity : item.quantity;
    const quantity = clamp(wanted, bounds);
    await prepared(
      tx
        .insert(cartItems)
        .values({ cartId, optionId: item.optionId, durationDays: item.duration, quantity })
        .onConflictDoUpdate({
          target: [cartItems.cartId, cartItems.optionId],
          set: { durationDays: item.duration, quantity },
        }),
      "upsert_cart_line",
    );
    const line = { optionId: item.optionId, duration: item.duration, quantity };
    const after = existing ? stored.map((old) => (old.optionId === item.optionId ? line : old)) : [...stored, line];
    return pricedServerCart(tx, userId, after, options);
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

/** Empties the cart and forgets its coupon, in one statement. */
export async function clearServerCart(db: Executor, userId: string): Promise<void> {
  await db.execute(sql`
    with emptied as (
      delete from ${cartItems}
      where ${cartItems.cartId} in (select ${carts.id} from ${carts} where ${carts.userId} = ${userId})
    )
    update ${carts} set coupon_code = null, updated_at = ${new Date().toISOString()} where ${carts.userId} = ${userId}`);
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
