import { and, eq, sql } from "drizzle-orm";
import type { OrderStatus } from "../../../contract/order";
import { countOrderCreated } from "../../metrics";
import { type Executor, prepared } from "../../db/client";
import { newId } from "../../db/ids";
import { orders, paymentGateways, payments, users } from "../../db/schema";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { CART_CHANGED, shownCartDigest } from "../../../contract/shown-cart";
import { type NewAccount, insertAccount } from "../accounts/accounts";
import { debitBalance } from "../payments/balance";
import type { CartItemInput } from "../cart/quote";
import { loadPricedOptions } from "../catalogue/shop";
import { evaluateCoupon, redeemCoupon } from "../coupons/discounts";
import { orderRefusalOfAccountEmail } from "../customers/blocks";
import { clearServerCart, fillServerCart, readServerCart } from "../cart/server-cart";
import { recheckStockLevels } from "../stock/levels";
import { insertOrderLines, lineDetail, soldOutMessage } from "./order-lines";
import { RESERVATION_ROOM_MESSAGES, assertReservationRoom } from "./reservation-room";
import { type OrderContext, closeUnpaidOrder, fulfilPaidOrder } from "./settlement";
import { together } from "./together";

/*
 * Placing an order: the server cart becomes an order with its stock reserved and its coupon counted,
 * paid at once from the balance or left pending for a hosted payment (settlement.ts settles it).
 */

export const RESERVATION_MS = 30 * 60 * 1000;
export const ORDER_MESSAGES = {
  emptyCart: "Your cart is empty",
  unavailableLines: "Some items in your cart are no longer available. Please remove them and try again.",
  ...RESERVATION_ROOM_MESSAGES,
  keyPlanGone: "The plan of this key is no longer sold",
} as const;

export type CreatedOrder = {
  orderId: string;
  status: OrderStatus;
  /** Set when a hosted payment must still be collected. */
  payment?: { id: string; amountCents: number; email: string };
};

/** What the buyer sends with a checkout (the API's and the hosted checkout's input alike). */
export type OrderInput = {
  coupon?: string;
  /** The digest of the cart the client showed (contract/shown-cart.ts); when given, any other cart is refused (ADR 052). */
  shownCart?: string;
  paymentMethod: string;
  message: string;
  clientIp: string | null;
  now?: Date;
};

/** What the customer's row lock reads besides the row: the checks a checkout makes before it writes anything. */
export type OrderAdmission = {
  /** The payment method's row in payment_gateways is enabled (null: there is no row). */
  methodEnabled: boolean | null;
  /** The address is on the blocklist, or a blocked account's (customer-blocks.ts). */
  emailRefused: boolean;
};

/**
 * Turns the user's server cart into an order in ONE transaction (placeOrder). The customer's row lock
 * makes their checkouts take turns, and the cart is emptied inside the transaction: a double-submitted
 * form finds the cart empty and cannot buy it twice.
 */
export async function createOrder(
  db: Executor,
  ctx: OrderContext,
  input: OrderInput & { userId: string; admit: (admission: OrderAdmission) => void },
): Promise<CreatedOrder> {
  return db.transaction(async (tx) => {
    // One statement locks the customer and asks what the checkout must check first (`admit` refuses).
    const [customer] = await prepared(
      tx
        .select({
          id: users.id,
          email: users.email,
          autoCreated: users.autoCreated,
          methodEnabled: sql<boolean | null>`(
          select ${paymentGateways.enabled} from ${paymentGateways} where ${paymentGateways.name} = ${input.paymentMethod}
        )`,
          emailRefused: orderRefusalOfAccountEmail(),
        })
        .from(users)
        .where(eq(users.id, input.userId))
        .for("update"),
      "lock_ordering_customer",
    );
    if (!customer) throw notFound("Account not found");
    input.admit(customer);
    return placeOrder(tx, ctx, customer, input);
  });
}

/**
 * Guest checkout as one operation (spec section 4): the account made from the email and the order of
 * the guest's cart, in ONE transaction, so any refusal (sold out, coupon, a taken email) leaves neither.
 */
export async function createGuestOrder(
  db: Executor,
  ctx: OrderContext,
  input: OrderInput & { account: NewAccount; cartItems: CartItemInput[] },
): Promise<CreatedOrder & { userId: string }> {
  const now = input.now ?? new Date();
  return db.transaction(async (tx) => {
    const userId = await insertAccount(tx, input.account, now);
    const { unavailable } = await fillServerCart(tx, userId, input.cartItems);
    if (unavailable > 0) throw conflict(ORDER_MESSAGES.unavailableLines);
    const created = await placeOrder(tx, ctx, { id: userId, email: input.account.email, autoCreated: true }, input);
    return { ...created, userId };
  });
}

/**
 * Prices the customer's server cart, counts the coupon use, reserves a credential for every unit of every
 * auto-fulfilment line, snapshots the lines and empties the cart. Any failure (sold out, coupon used up,
 * balance short) throws and the caller's transaction rolls all of it back. A balance (or free) order is
 * paid and delivered here; a hosted one comes back with the payment to collect.
 */
async function placeOrder(
  tx: Executor,
  ctx: OrderContext,
  customer: { id: string; email: string; autoCreated: boolean },
  input: OrderInput,
): Promise<CreatedOrder> {
  const now = input.now ?? new Date();
  const payByBalance = input.paymentMethod === "balance";
  if (!payByBalance) await assertReservationRoom(tx, customer.id, input.clientIp, now, ctx.rateLimitScale);

  const cart = await readServerCart(tx, customer.id, { forOrder: true });
  if (cart.cartItems.length === 0) throw badRequest(ORDER_MESSAGES.emptyCart);
  cart.cartItems.forEach((line, index) => {
    const asked = cart.stored[index].quantity;
    const { availableStock, title, product } = line.option;
    // The quote clamps to stock; buying fewer than asked without saying so would be wrong.
    if (line.soldOut || (asked > line.quantity && line.quantity === availableStock)) {
      throw conflict(soldOutMessage(product.title, title, line.soldOut ? availableStock : line.quantity));
    }
  });

  const optionById = new Map(cart.options.map((option) => [option._id, option]));
  const lines = cart.cartItems.map((line) => ({
    quote: line,
    ...lineDetail(optionById.get(line.option._id)!, line.duration),
  }));
  const subtotalCents = lines.reduce((sum, line) => sum + line.unitPriceCents * line.quote.quantity, 0);

  const couponCode = input.coupon?.trim();
  const discount = couponCode
    ? await evaluateCoupon(
        tx,
        couponCode,
        lines.map((line) => ({ productId: line.productId, priceCents: line.unitPriceCents * line.quote.quantity })),
        customer.id,
        now,
      )
    : undefined;
  const priceCents = subtotalCents - (discount?.discountCents ?? 0);
  // Checked here, under the customer's lock and before anything is written: no page rule can bypass it.
  if (input.shownCart !== undefined) {
    const ordering = await shownCartDigest({
      lines: lines.map(({ quote, unitPriceCents }) => ({
        optionId: quote.option._id,
        duration: quote.duration,
        quantity: quote.quantity,
        priceCents: unitPriceCents * quote.quantity,
      })),
      coupon: discount ? couponCode! : "",
      totalCents: priceCents,
    });
    if (ordering !== input.shownCart) throw new AppError(409, CART_CHANGED, { shownCart: [CART_CHANGED] });
  }
  const expiresAt = new Date(now.getTime() + RESERVATION_MS);

  const orderId = newId();
  const paidNow = payByBalance || priceCents === 0;
  // The order's row and then its lines, sent together: the server runs them in the order they were sent, so each
  // line finds its order, and the pair costs one round trip (ADR 063).
  const inserting = prepared(
    tx
      .insert(orders)
      .values({
        id: orderId,
        userId: customer.id,
        email: customer.email,
        status: "pending",
        subtotalCents,
        discountCents: discount?.discountCents ?? 0,
        priceCents,
        paymentMethod: input.paymentMethod,
        couponId: discount?.coupon.id,
        message: input.message,
        clientIp: input.clientIp,
        createdAt: now,
        updatedAt: now,
        expiresAt,
      })
      .returning(),
    "insert_order",
  ).then(([row]) => row);
  const writing = insertOrderLines(
    tx,
    orderId,
    lines.map((line) => ({
      ...line,
      optionId: line.quote.option._id,
      productTitle: line.quote.option.product.title,
      optionTitle: line.quote.option.title,
      picture: line.quote.option.product.picture,
      durationDays: line.quote.duration,
      quantity: line.quote.quantity,
    })),
    { reservedUntil: expiresAt, now, deliverNow: paidNow },
  );
  await together([inserting, writing]);
  const [order, written] = [await inserting, await writing];
  // The coupon's use and the emptied cart depend on nothing else written here: they travel with the next writes.
  const writesInFlight: Promise<unknown>[] = [];
  if (discount) writesInFlight.push(redeemCoupon(tx, discount.coupon, customer.id, orderId));
  writesInFlight.push(clearServerCart(tx, customer.id));

  if (paidNow) {
    // The debit refuses a balance too short; fulfilPaidOrder throws that before it counts the order paid.
    if (priceCents > 0) {
      writesInFlight.push(debitBalance(tx, customer.id, priceCents, { orderId, note: `Order ${orderId}`, now }));
    }
    // Settles, notifies the operator and checks the stock levels.
    const placed = { order, ...written, autoCreatedOwner: customer.autoCreated, writesInFlight };
    const status = await fulfilPaidOrder(tx, ctx, orderId, now, placed);
    // Counted once nothing more can refuse the order (the coupon's use, the debit).
    countOrderCreated(input.paymentMethod);
    return { orderId, status };
  }
  const opening = tx
    .insert(payments)
    .values({
      purpose: "order",
      orderId,
      userId: customer.id,
      gateway: input.paymentMethod,
      amountCents: priceCents,
      currency: "USD",
      createdAt: now,
    })
    .returning({ id: payments.id })
    .then(([row]) => row);
  await together([...writesInFlight, opening]);
  const payment = await opening;
  countOrderCreated(input.paymentMethod);
  await recheckStockLevels(
    tx,
    ctx,
    lines.filter((line) => line.fulfilMode === "auto").map((line) => line.quote.option._id),
    now,
  );
  return { orderId, status: "pending", payment: { id: payment.id, amountCents: priceCents, email: customer.email } };
}

/**
 * The order a redeemed key pays for (ADR 021): one line of the key's option, warranty duration and quantity at
 * price 0 with paymentMethod 'key', its credentials claimed as a checkout claims them, delivered at once and
 * mailed. Runs in the caller's transaction, which also marks the key used: a sold-out line throws the 409
 * and nothing (the key's use included) is kept.
 */
export async function createKeyOrder(
  tx: Executor,
  ctx: OrderContext,
  input: {
    customer: { id: string; email: string; autoCreated?: boolean };
    optionId: string;
    durationDays: number;
    quantity: number;
    clientIp: string | null;
    now: Date;
  },
): Promise<{ orderId: string; status: OrderStatus }> {
  const [option] = await loadPricedOptions(tx, { optionIds: [input.optionId] }, { withOrderTexts: true });
  if (!option?.priceCentsByDuration.has(input.durationDays)) throw conflict(ORDER_MESSAGES.keyPlanGone);
  const detail = lineDetail(option, input.durationDays);
  const orderId = newId();
  const [order] = await prepared(
    tx
      .insert(orders)
      .values({
        id: orderId,
        userId: input.customer.id,
        email: input.customer.email,
        status: "pending",
        subtotalCents: 0,
        priceCents: 0,
        paymentMethod: "key",
        source: "redeem",
        clientIp: input.clientIp,
        createdAt: input.now,
        updatedAt: input.now,
      })
      .returning(),
    "insert_key_order",
  );
  const written = await insertOrderLines(
    tx,
    orderId,
    [
      {
        ...detail,
        // What the customer paid for this order: the key was paid for elsewhere.
        unitPriceCents: 0,
        optionId: option._id,
        productTitle: option.product.title,
        optionTitle: option.title,
        picture: option.product.picture,
        durationDays: input.durationDays,
        quantity: input.quantity,
      },
    ],
    { reservedUntil: null, now: input.now, deliverNow: true },
  );
  countOrderCreated("key");
  const placed = { order, ...written, autoCreatedOwner: input.customer.autoCreated };
  return { orderId, status: await fulfilPaidOrder(tx, ctx, orderId, input.now, placed) };
}

/**
 * The provider could not open a checkout: the order is cancelled (stock and coupon use released) and
 * its lines go back to the customer's cart in the same transaction, so an outage never empties a cart.
 */
export async function cancelUnopenedOrder(db: Executor, orderId: string, now = new Date()): Promise<void> {
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, couponId: orders.couponId })
      .from(orders)
      .where(eq(orders.id, orderId))
      .for("update");
    if (order?.status !== "pending") return;
    await closeUnpaidOrder(tx, order, "cancelled", now);
  });
}

/**
 * The guest variant: the account and the order made by createGuestOrder are removed again (after the
 * stock and coupon use are released), so a provider outage leaves nothing behind and the guest's retry
 * with the same email starts afresh. Nobody else has seen either: no session, no payment, no mail.
 */
export async function discardGuestOrder(
  db: Executor,
  created: { orderId: string; userId: string },
  now = new Date(),
): Promise<void> {
  await db.transaction(async (tx) => {
    const [order] = await tx
      .select({ id: orders.id, status: orders.status, couponId: orders.couponId })
      .from(orders)
      .where(and(eq(orders.id, created.orderId), eq(orders.userId, created.userId)))
      .for("update");
    if (order?.status !== "pending") return;
    await closeUnpaidOrder(tx, order, "cancelled", now);
    await tx.delete(payments).where(eq(payments.orderId, order.id));
    await tx.delete(orders).where(eq(orders.id, order.id));
    await tx.delete(users).where(and(eq(users.id, created.userId), eq(users.autoCreated, true)));
  });
}
