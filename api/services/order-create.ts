import { and, count, eq, gt, min, sql } from "drizzle-orm";
import type { OrderStatus } from "../../contract/order";
import { countOrderCreated } from "../metrics";
import { type Executor, prepared } from "../db/client";
import { newId } from "../db/ids";
import { orderProducts, orders, paymentGateways, payments, users } from "../db/schema";
import { AppError, badRequest, conflict, notFound } from "../errors";
import { CART_CHANGED, shownCartDigest } from "../../contract/shown-cart";
import { RateLimitedError } from "./guards/rate-limit";
import { type NewAccount, insertAccount } from "./accounts/accounts";
import { debitBalance } from "./payments/balance";
import type { CartItemInput } from "./cart/quote";
import { evaluateCoupon, redeemCoupon } from "./coupons/discounts";
import { orderRefusalOfAccountEmail } from "./customers/blocks";
import { type OrderContext, type PlacedOrder, closeUnpaidOrder, fulfilPaidOrder } from "./order-settlement";
import { clearServerCart, fillServerCart, readServerCart } from "./cart/server-cart";
import { claimAndDeliver, claimCredentials } from "./stock/claims";
import { recheckStockLevels } from "./stock/levels";
import { type PricedOption, loadPricedOptions } from "./catalogue/shop";

/*
 * Placing an order: the server cart becomes an order with its stock reserved and its coupon counted,
 * paid at once from the balance or left pending for a hosted payment (order-settlement.ts settles it).
 */

export const RESERVATION_MS = 30 * 60 * 1000;
/** Unpaid orders one account / one address may hold, so nobody can lock up the shop's stock. */
export const PENDING_ORDERS_PER_USER = 3;
export const PENDING_ORDERS_PER_ADDRESS = 5;
export const ORDER_MESSAGES = {
  emptyCart: "Your cart is empty",
  unavailableLines: "Some items in your cart are no longer available. Please remove them and try again.",
  tooManyPendingUser: `You already have ${PENDING_ORDERS_PER_USER} unpaid orders. Pay one of them or wait up to 30 minutes until they expire.`,
  tooManyPendingAddress:
    "Too many unpaid orders from your network. Please pay an open order or try again in 30 minutes.",
  keyPlanGone: "The plan of this key is no longer sold",
} as const;

export type CreatedOrder = {
  orderId: string;
  status: OrderStatus;
  /** Set when a hosted payment must still be collected. */
  payment?: { id: string; amountCents: number; email: string };
};

const soldOutMessage = (productTitle: string, optionTitle: string, left: number) =>
  left > 0
    ? `Sorry, only ${left} left of ${productTitle} — ${optionTitle}`
    : `Sorry, ${productTitle} — ${optionTitle} is sold out`;

/** Any fixed number: names the advisory locks that serialise the unpaid-order count of one address. */
const ADDRESS_LOCK_SPACE = 740_0002;

/** Retry-After for the unpaid-order caps: room frees up when the oldest open reservation expires. */
function secondsUntil(expiry: Date | null, now: Date): number {
  return Math.max(1, Math.ceil(((expiry?.getTime() ?? now.getTime()) - now.getTime()) / 1000));
}

async function assertReservationRoom(
  tx: Executor,
  userId: string,
  clientIp: string | null,
  now: Date,
  rateLimitScale = 1,
) {
  const open = and(eq(orders.status, "pending"), gt(orders.expiresAt, now));
  // The caller holds the customer's row lock, so this count cannot change under it.
  const [mine] = await tx
    .select({ open: count(), firstExpiry: min(orders.expiresAt) })
    .from(orders)
    .where(and(open, eq(orders.userId, userId)));
  if (Number(mine.open) >= PENDING_ORDERS_PER_USER) {
    throw new RateLimitedError(secondsUntil(mine.firstExpiry, now), ORDER_MESSAGES.tooManyPendingUser);
  }
  if (!clientIp || clientIp === "unknown") return;
  // Many accounts share one address: without this lock each would count the others' orders before
  // they commit. Held until the transaction ends, so the count and the insert are one step.
  await tx.execute(sql`select pg_advisory_xact_lock(${ADDRESS_LOCK_SPACE}, hashtext(${clientIp}))`);
  const [fromAddress] = await tx
    .select({ open: count(), firstExpiry: min(orders.expiresAt) })
    .from(orders)
    .where(and(open, eq(orders.clientIp, clientIp)));
  if (Number(fromAddress.open) >= PENDING_ORDERS_PER_ADDRESS * rateLimitScale) {
    throw new RateLimitedError(secondsUntil(fromAddress.firstExpiry, now), ORDER_MESSAGES.tooManyPendingAddress);
  }
}

type OrderInput = {
  coupon?: string;
  /** The digest of the cart the client showed; when given, any other cart is refused (ADR 052). */
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
  const [order] = await prepared(
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
  );
  const written = await insertOrderLines(
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
  if (discount) await redeemCoupon(tx, discount.coupon, customer.id, orderId);
  await clearServerCart(tx, customer.id);
  // Counted once nothing more can refuse the order (a sold-out line throws above).
  countOrderCreated(input.paymentMethod);

  if (paidNow) {
    if (priceCents > 0) await debitBalance(tx, customer.id, priceCents, { orderId, note: `Order ${orderId}`, now });
    // Settles, notifies the operator and checks the stock levels.
    const placed = { order, ...written, autoCreatedOwner: customer.autoCreated };
    return { orderId, status: await fulfilPaidOrder(tx, ctx, orderId, now, placed) };
  }
  const [payment] = await tx
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
    .returning({ id: payments.id });
  await recheckStockLevels(
    tx,
    ctx,
    lines.filter((line) => line.fulfilMode === "auto").map((line) => line.quote.option._id),
    now,
  );
  return { orderId, status: "pending", payment: { id: payment.id, amountCents: priceCents, email: customer.email } };
}

type NewOrderLine = LineDetail & {
  optionId: string;
  productTitle: string;
  optionTitle: string;
  picture: string;
  durationDays: number;
  quantity: number;
};

/**
 * Snapshots each line into order_products and takes a credential for every unit of an auto-fulfilment line:
 * reserved for a payment to come, or (`deliverNow`, an order paid as it is placed) delivered at once. A line
 * that cannot get all its units throws the sold-out 409, and the caller's transaction undoes it all. Answers the
 * lines as written and what each automatic line received.
 */
async function insertOrderLines(
  tx: Executor,
  orderId: string,
  lines: NewOrderLine[],
  claim: { reservedUntil: Date | null; now: Date; deliverNow: boolean },
): Promise<Pick<PlacedOrder, "lines" | "deliveredByLine">> {
  const written: PlacedOrder["lines"] = [];
  const deliveredByLine = new Map<string, number>();
  for (const line of lines) {
    const [row] = await prepared(
      tx
        .insert(orderProducts)
        .values({
          id: newId(),
          orderId,
          productId: line.productId,
          optionId: line.optionId,
          title: line.productTitle,
          subtitle: line.subtitle,
          picture: line.picture,
          description: line.description,
          deliveryNotes: line.deliveryNotes,
          fulfilMode: line.fulfilMode,
          durationDays: line.durationDays,
          unitPriceCents: line.unitPriceCents,
          quantity: line.quantity,
          priceCents: line.unitPriceCents * line.quantity,
          createdAt: claim.now,
        })
        .returning(),
      "insert_order_line",
    );
    written.push(row);
    if (line.fulfilMode === "manual") continue;
    const taken = claim.deliverNow
      ? await claimAndDeliver(tx, row, claim.now)
      : (
          await claimCredentials(tx, {
            optionId: line.optionId,
            orderProductId: row.id,
            quantity: line.quantity,
            reservedUntil: claim.reservedUntil,
          })
        ).length;
    if (taken < line.quantity) {
      throw conflict(soldOutMessage(line.productTitle, line.optionTitle, taken));
    }
    if (claim.deliverNow) deliveredByLine.set(row.id, taken);
  }
  return { lines: written, deliveredByLine };
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

type LineDetail = {
  productId: string;
  unitPriceCents: number;
  subtitle: string;
  description: string;
  deliveryNotes: string;
  fulfilMode: "auto" | "manual";
};

/** What an order's line keeps of its option and duration: exact cents and the product's texts. */
function lineDetail(option: PricedOption, duration: number): LineDetail {
  const texts = option.orderTexts!;
  return {
    productId: option.product._id,
    unitPriceCents: option.priceCentsByDuration.get(duration)!,
    subtitle: option.subOptions.find((subOption) => subOption.duration === duration)!.title,
    description: texts.description,
    deliveryNotes: texts.deliveryNotes,
    fulfilMode: texts.fulfilMode,
  };
}
