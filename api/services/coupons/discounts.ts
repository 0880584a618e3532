import { and, count, eq, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { couponProducts, couponRedemptions, coupons, users } from "../../db/schema";
import { AppError, badRequest, conflict } from "../../errors";
import { type CartItemInput, type QuotedLine, quoteCart } from "../cart/quote";
import { centsToUsd, usdToCents } from "../../../contract/money";
import { readServerCart, rememberCartCoupon } from "../cart/server-cart";

export const COUPON_MESSAGES = {
  invalid: "Invalid coupon code",
  expired: "This coupon has expired",
  exhausted: "This coupon has reached its usage limit",
  notApplicable: "This coupon does not apply to the items in your cart",
  alreadyUsed: "You have already used this coupon",
} as const;

export const minimumAmountMessage = (minAmountCents: number) =>
  `Minimum order amount is $${centsToUsd(minAmountCents).toFixed(2)}`;

export type CouponRules = {
  kind: "percent" | "fixed";
  /** Percent (1-100) or cents. */
  amount: number;
  minAmountCents: number;
  maxUses: number | null;
  usedCount: number;
  perCustomerLimit: number | null;
  /** Set for a per-user coupon. */
  userId: string | null;
  active: boolean;
  expiresAt: Date | null;
  /** Empty: any product. */
  productIds: string[];
};

export type PricedLine = { productId: string; priceCents: number };

export type CouponCheck = {
  /** null for a guest: per-user coupons and per-customer limits then cannot match. */
  customerId: string | null;
  /** How often this customer has already used the coupon (0 for guests). */
  customerUses: number;
  now: Date;
};

export type DiscountResult =
  | { ok: true; subtotalCents: number; discountCents: number; totalCents: number }
  | { ok: false; status: 400 | 409; message: string };

/**
 * The coupon rules without the database: whether the coupon applies to these lines now, and how much
 * it takes off. A restricted coupon discounts only its products' lines; the minimum is on the whole cart.
 */
export function computeDiscount(coupon: CouponRules, lines: PricedLine[], check: CouponCheck): DiscountResult {
  const subtotalCents = lines.reduce((sum, line) => sum + line.priceCents, 0);
  // An inactive coupon, or someone else's, looks exactly like one that does not exist.
  if (!coupon.active || (coupon.userId !== null && coupon.userId !== check.customerId)) {
    return { ok: false, status: 400, message: COUPON_MESSAGES.invalid };
  }
  if (coupon.expiresAt && coupon.expiresAt.getTime() <= check.now.getTime()) {
    return { ok: false, status: 400, message: COUPON_MESSAGES.expired };
  }
  // Said first: a customer who used a single-use coupon (a slots prize) used it, it did not run out.
  if (coupon.perCustomerLimit !== null && check.customerUses >= coupon.perCustomerLimit) {
    return { ok: false, status: 409, message: COUPON_MESSAGES.alreadyUsed };
  }
  if (coupon.maxUses !== null && coupon.usedCount >= coupon.maxUses) {
    return { ok: false, status: 409, message: COUPON_MESSAGES.exhausted };
  }
  if (subtotalCents < coupon.minAmountCents) {
    return { ok: false, status: 400, message: minimumAmountMessage(coupon.minAmountCents) };
  }
  const restriction = new Set(coupon.productIds);
  const eligibleCents = lines
    .filter((line) => restriction.size === 0 || restriction.has(line.productId))
    .reduce((sum, line) => sum + line.priceCents, 0);
  if (eligibleCents === 0) return { ok: false, status: 400, message: COUPON_MESSAGES.notApplicable };
  const discountCents =
    coupon.kind === "percent"
      ? Math.min(eligibleCents, Math.round((eligibleCents * coupon.amount) / 100))
      : Math.min(eligibleCents, coupon.amount);
  return { ok: true, subtotalCents, discountCents, totalCents: subtotalCents - discountCents };
}

export type StoredCoupon = CouponRules & { id: string; code: string };

/** The coupon with this code (case-insensitive), or undefined. */
export async function findCoupon(db: Executor, code: string): Promise<StoredCoupon | undefined> {
  const [row] = await db
    .select()
    .from(coupons)
    .where(eq(sql`lower(${coupons.code})`, code.trim().toLowerCase()))
    .limit(1);
  if (!row) return undefined;
  const restriction = await db
    .select({ productId: couponProducts.productId })
    .from(couponProducts)
    .where(eq(couponProducts.couponId, row.id));
  return {
    id: row.id,
    code: row.code,
    kind: row.kind,
    amount: row.amount,
    minAmountCents: row.minAmountCents,
    maxUses: row.maxUses,
    usedCount: row.usedCount,
    perCustomerLimit: row.perCustomerLimit,
    userId: row.userId,
    active: row.active,
    expiresAt: row.expiresAt,
    productIds: restriction.map((link) => link.productId),
  };
}

async function customerUses(db: Executor, couponId: string, customerId: string | null): Promise<number> {
  if (!customerId) return 0;
  const [row] = await db
    .select({ uses: count() })
    .from(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.userId, customerId)));
  return Number(row?.uses ?? 0);
}

/** Checks a code against priced lines and answers the discount, or throws the rule's message. */
export async function evaluateCoupon(
  db: Executor,
  code: string,
  lines: PricedLine[],
  customerId: string | null,
  now = new Date(),
): Promise<{ coupon: StoredCoupon; subtotalCents: number; discountCents: number; totalCents: number }> {
  const coupon = await findCoupon(db, code);
  if (!coupon) throw badRequest(COUPON_MESSAGES.invalid, { coupon: [COUPON_MESSAGES.invalid] });
  const result = computeDiscount(coupon, lines, {
    customerId,
    customerUses: await customerUses(db, coupon.id, customerId),
    now,
  });
  if (!result.ok) throw new AppError(result.status, result.message, { coupon: [result.message] });
  return { coupon, ...result };
}

/**
 * Counts one use for an order, atomically: the caller holds the customer's row lock (so the
 * per-customer count cannot race), and the conditional update stops the global limit being passed.
 */
export async function redeemCoupon(
  tx: Executor,
  coupon: StoredCoupon,
  customerId: string,
  orderId: string,
): Promise<void> {
  if (coupon.perCustomerLimit !== null) {
    await tx.select({ id: users.id }).from(users).where(eq(users.id, customerId)).for("update");
    if ((await customerUses(tx, coupon.id, customerId)) >= coupon.perCustomerLimit) {
      throw conflict(COUPON_MESSAGES.alreadyUsed);
    }
  }
  const counted = await tx
    .update(coupons)
    .set({ usedCount: sql`${coupons.usedCount} + 1` })
    .where(
      and(
        eq(coupons.id, coupon.id),
        eq(coupons.active, true),
        sql`(${coupons.maxUses} is null or ${coupons.usedCount} < ${coupons.maxUses})`,
      ),
    )
    .returning({ id: coupons.id });
  if (counted.length === 0) throw conflict(COUPON_MESSAGES.exhausted);
  await tx.insert(couponRedemptions).values({ couponId: coupon.id, orderId, userId: customerId });
}

/** Gives back the use an order took, when that order ends unpaid. */
export async function releaseCouponUse(tx: Executor, couponId: string, orderId: string): Promise<void> {
  const removed = await tx
    .delete(couponRedemptions)
    .where(and(eq(couponRedemptions.couponId, couponId), eq(couponRedemptions.orderId, orderId)))
    .returning({ couponId: couponRedemptions.couponId });
  if (removed.length === 0) return;
  await tx
    .update(coupons)
    .set({ usedCount: sql`greatest(${coupons.usedCount} - 1, 0)` })
    .where(eq(coupons.id, couponId));
}

// ---------------------------------------------------------------- pricing a cart with a coupon

export type CouponPrice = { price: number; message: string };

/** The lines a coupon is checked against: those that can be bought now, in cents. */
function couponLines(lines: QuotedLine[]): PricedLine[] {
  return lines
    .filter((line) => !line.soldOut)
    .map((line) => ({ productId: line.option.product._id, priceCents: usdToCents(line.price) }));
}

async function priceWithCoupon(
  db: Executor,
  lines: QuotedLine[],
  cartPrice: number,
  code: string,
  customerId: string | null,
): Promise<CouponPrice & { code?: string }> {
  if (code.trim() === "") return { price: cartPrice, message: "Coupon removed" };
  if (lines.length === 0) throw badRequest("Your cart is empty");
  const result = await evaluateCoupon(db, code, couponLines(lines), customerId);
  return {
    price: centsToUsd(result.totalCents),
    message: `Coupon applied: you save $${centsToUsd(result.discountCents).toFixed(2)}`,
    code: result.coupon.code,
  };
}

/** POST /v1/cart/applyCoupon: the signed-in customer's server cart after the coupon (remembered with the cart). */
export async function applyCouponToServerCart(db: Executor, userId: string, code: string): Promise<CouponPrice> {
  const cart = await readServerCart(db, userId);
  const priced = await priceWithCoupon(db, cart.cartItems, cart.cartPrice, code, userId);
  await rememberCartCoupon(db, userId, priced.code ?? null);
  return { price: priced.price, message: priced.message };
}

/** POST /v1/cart/applyCouponPublic: a guest cart (sent by the client) after the coupon. */
export async function applyCouponToItems(
  db: Executor,
  items: CartItemInput[],
  code: string,
  customerId: string | null,
): Promise<CouponPrice> {
  const quote = await quoteCart(db, items);
  const priced = await priceWithCoupon(db, quote.cartItems, quote.cartPrice, code, customerId);
  return { price: priced.price, message: priced.message };
}
