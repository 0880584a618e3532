import { asc, eq } from "drizzle-orm";
import type { OrderStatus } from "../../../contract/order";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { paymentGateways, payments, users } from "../../db/schema";
import { AppError, badRequest, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { type PaymentGateways, createPaymentGateways } from "../../payments/registry";
import { GatewayUnavailable, type HostedGatewayName } from "../../payments/types";
import { EMAIL_TAKEN, prepareGuestAccount } from "../accounts/accounts";
import type { CartItemInput } from "../cart/quote";
import { EMAIL_REFUSED } from "../../../contract/admin-customers";
import { assertEmailMayOrder } from "../customers/blocks";
import { assertHuman } from "../guards/human-check";
import {
  type CreatedOrder,
  ORDER_MESSAGES,
  type OrderAdmission,
  type OrderInput,
  cancelUnopenedOrder,
  createGuestOrder,
  createOrder,
  discardGuestOrder,
} from "../orders/create";

export type PaymentDeps = { db: Database; config: Config; logger: Logger };

export { CHECKOUT_PAYMENT_METHODS as PAYMENT_METHODS } from "../../../contract/browser/order";

export const SANDBOX_LABEL = "Sandbox (test payments)";
export const METHOD_UNAVAILABLE = "This payment method is not available. Please choose another one.";
export const GATEWAY_DOWN =
  "The payment provider cannot be reached right now. Please try again in a moment or choose another payment method.";

const builtGateways = new WeakMap<Config, PaymentGateways>();
/** The usable hosted gateways of this configuration, built once (the Stripe client keeps connections). */
export function paymentGatewaysFor(config: Config): PaymentGateways {
  let gateways = builtGateways.get(config);
  if (!gateways) {
    gateways = createPaymentGateways(config);
    builtGateways.set(config, gateways);
  }
  return gateways;
}

export type GatewayListing = { name: string; label: string; status: boolean };

/**
 * The gateways a customer may choose: enabled in the database AND usable here (credentials configured,
 * or balance, which needs no provider). The sandbox is listed whenever this process allows it, unless
 * an admin disabled its row.
 */
export async function listCheckoutGateways(db: Executor, config: Config): Promise<GatewayListing[]> {
  const usable = paymentGatewaysFor(config);
  const rows = await db
    .select({ name: paymentGateways.name, label: paymentGateways.label, enabled: paymentGateways.enabled })
    .from(paymentGateways)
    .orderBy(asc(paymentGateways.position), asc(paymentGateways.name));
  const listing: GatewayListing[] = rows
    .filter((row) => row.name !== "sandbox" || usable.has("sandbox"))
    .map((row) => ({
      name: row.name,
      label: row.name === "sandbox" ? SANDBOX_LABEL : row.label,
      status: row.enabled && (row.name === "balance" || usable.has(row.name)),
    }));
  if (usable.has("sandbox") && !rows.some((row) => row.name === "sandbox")) {
    listing.push({ name: "sandbox", label: SANDBOX_LABEL, status: true });
  }
  return listing;
}

async function assertMethodAvailable(db: Executor, config: Config, method: string): Promise<void> {
  const listing = await listCheckoutGateways(db, config);
  if (!listing.some((gateway) => gateway.name === method && gateway.status)) throw methodUnavailable();
}

const methodUnavailable = () => badRequest(METHOD_UNAVAILABLE, { paymentMethod: [METHOD_UNAVAILABLE] });

/**
 * listCheckoutGateways' rule for one method, given its row's `enabled` (null: no row): usable here (balance
 * needs no provider) and enabled, or the sandbox, listed whenever this process allows it unless its row is off.
 */
function methodAvailable(config: Config, method: string, enabled: boolean | null): boolean {
  const usable = method === "balance" || paymentGatewaysFor(config).has(method as HostedGatewayName);
  return usable && (enabled ?? method === "sandbox");
}

const orderContext = (config: Config) => ({
  publicUrl: config.publicUrl,
  rateLimitScale: config.rateLimitScale,
  notifications: config.notifications,
});

const findOrderUrl = (config: Config, orderId: string) =>
  `${config.publicUrl}/find-order?id=${encodeURIComponent(orderId)}`;

/** `status`: pending while a hosted payment is collected; paid from the balance (or $0), what the order is now. */
export type CheckoutResult = { orderId: string; status: OrderStatus; paymentUrl?: string };

/**
 * Checkout: the order is created (stock reserved, coupon counted, cart emptied) and committed as pending
 * first; only then is the provider asked for a hosted checkout, so no database transaction waits on the
 * network. If the provider cannot open one, the order is cancelled at once, its stock released and its
 * lines returned to the cart.
 */
export async function checkout(deps: PaymentDeps, input: OrderInput & { userId: string }): Promise<CheckoutResult> {
  // Asked in the statement that locks the customer: the method first, then the address's blocks.
  const admit = ({ methodEnabled, emailRefused }: OrderAdmission) => {
    if (!methodAvailable(deps.config, input.paymentMethod, methodEnabled)) throw methodUnavailable();
    if (emailRefused) throw new AppError(403, EMAIL_REFUSED, { email: [EMAIL_REFUSED] });
  };
  const created = await createOrder(deps.db, orderContext(deps.config), { ...input, admit });
  return openOrderCheckout(deps, created, input.paymentMethod, () => cancelUnopenedOrder(deps.db, created.orderId));
}

/**
 * Guest checkout in one call (spec section 4): the human check, then the account made from the email and
 * the order of the guest's cart lines in one transaction, then the hosted checkout. A refusal at any step
 * leaves no account and no order; so does a provider that cannot open the checkout.
 */
export async function guestCheckout(
  deps: PaymentDeps,
  input: OrderInput & {
    email: string;
    cartItems: CartItemInput[];
    humanCheck: string | undefined;
    clientIp: string;
  },
): Promise<CheckoutResult> {
  const ctx = { db: deps.db, config: deps.config, ip: input.clientIp, now: input.now };
  await assertHuman({ ...deps }, input.humanCheck, { ip: input.clientIp, now: input.now });
  // Balance belongs to signed-in customers (spec section 4); a new account has none.
  if (input.paymentMethod === "balance") throw badRequest(METHOD_UNAVAILABLE, { paymentMethod: [METHOD_UNAVAILABLE] });
  await assertMethodAvailable(deps.db, deps.config, input.paymentMethod);
  if (input.cartItems.length === 0) throw badRequest(ORDER_MESSAGES.emptyCart);
  await assertEmailMayOrder(deps.db, input.email);
  const created = await prepareGuestAccount(ctx, input.email)
    .then((account) => createGuestOrder(deps.db, orderContext(deps.config), { ...input, account }))
    .catch((error: unknown) => {
      // Filed under `email`, so a client can tell it from other conflicts (sold out) and offer Sign In.
      if (error instanceof AppError && error.status === 409 && error.message === EMAIL_TAKEN) {
        throw new AppError(409, EMAIL_TAKEN, { email: [EMAIL_TAKEN] });
      }
      throw error;
    });
  return openOrderCheckout(deps, created, input.paymentMethod, () =>
    discardGuestOrder(deps.db, { orderId: created.orderId, userId: created.userId }),
  );
}

/** Asks the provider for the hosted checkout of a pending order; `undo` runs when it cannot open one. */
async function openOrderCheckout(
  deps: PaymentDeps,
  created: CreatedOrder,
  paymentMethod: string,
  undo: () => Promise<void>,
): Promise<CheckoutResult> {
  if (!created.payment) return { orderId: created.orderId, status: created.status };
  const gateway = paymentGatewaysFor(deps.config).get(paymentMethod as HostedGatewayName)!;
  let opened;
  try {
    opened = await gateway.createCheckout({
      paymentId: created.payment.id,
      amountCents: created.payment.amountCents,
      currency: "USD",
      description: `Order ${created.orderId.slice(0, 8)}`,
      customerEmail: created.payment.email,
      successUrl: findOrderUrl(deps.config, created.orderId),
      cancelUrl: findOrderUrl(deps.config, created.orderId),
      metadata: { orderId: created.orderId, purpose: "order" },
    });
  } catch (error) {
    await undo();
    if (!(error instanceof GatewayUnavailable)) throw error;
    deps.logger.warn("checkout could not be opened", {
      gateway: gateway.name,
      orderId: created.orderId,
      error: error.message,
    });
    throw new AppError(503, GATEWAY_DOWN);
  }
  await deps.db
    .update(payments)
    .set({ providerReference: opened.providerReference, checkoutUrl: opened.checkoutUrl })
    .where(eq(payments.id, created.payment.id));
  return { orderId: created.orderId, status: created.status, paymentUrl: opened.checkoutUrl };
}

/** Starts a balance top-up through a hosted gateway; the webhook credits the balance when it is paid. */
export async function createTopUp(
  deps: PaymentDeps,
  input: { userId: string; amountCents: number; paymentMethod: string },
): Promise<{ paymentId: string; paymentUrl: string }> {
  if (input.paymentMethod === "balance") throw badRequest(METHOD_UNAVAILABLE, { paymentMethod: [METHOD_UNAVAILABLE] });
  if (!Number.isSafeInteger(input.amountCents) || input.amountCents <= 0) {
    throw badRequest("Please enter a valid amount", { balance: ["Please enter a valid amount"] });
  }
  await assertMethodAvailable(deps.db, deps.config, input.paymentMethod);
  const [user] = await deps.db.select({ email: users.email }).from(users).where(eq(users.id, input.userId));
  if (!user) throw notFound("Account not found");
  await assertEmailMayOrder(deps.db, user.email);
  const [payment] = await deps.db
    .insert(payments)
    .values({
      purpose: "topup",
      userId: input.userId,
      gateway: input.paymentMethod,
      amountCents: input.amountCents,
      currency: "USD",
    })
    .returning({ id: payments.id });
  const gateway = paymentGatewaysFor(deps.config).get(input.paymentMethod as HostedGatewayName)!;
  try {
    const opened = await gateway.createCheckout({
      paymentId: payment.id,
      amountCents: input.amountCents,
      currency: "USD",
      description: "Balance top-up",
      customerEmail: user.email,
      successUrl: `${deps.config.publicUrl}/balance`,
      cancelUrl: `${deps.config.publicUrl}/balance`,
      metadata: { purpose: "topup" },
    });
    await deps.db
      .update(payments)
      .set({ providerReference: opened.providerReference, checkoutUrl: opened.checkoutUrl })
      .where(eq(payments.id, payment.id));
    return { paymentId: payment.id, paymentUrl: opened.checkoutUrl };
  } catch (error) {
    await deps.db.update(payments).set({ status: "failed" }).where(eq(payments.id, payment.id));
    if (!(error instanceof GatewayUnavailable)) throw error;
    deps.logger.warn("top-up checkout could not be opened", { gateway: gateway.name, error: error.message });
    throw new AppError(503, GATEWAY_DOWN);
  }
}
