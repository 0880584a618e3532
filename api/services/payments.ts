import { and, asc, eq } from "drizzle-orm";
import type { Config } from "../config";
import type { Database, Executor } from "../db/client";
import { orders, paymentGateways, payments, users, webhookEvents } from "../db/schema";
import { AppError, badRequest, notFound } from "../errors";
import type { Logger } from "../logger";
import { type PaymentGateways, createPaymentGateways, gatewayForWebhook } from "../payments/registry";
import { type SandboxOutcome, signSandboxEvent } from "../payments/sandbox";
import { GatewayUnavailable, type HostedGatewayName, type PaymentEvent } from "../payments/types";
import { creditBalance } from "./balance";
import { createOrder } from "./order-create";
import { cancelUnpaidOrder, closeUnpaidOrder, fulfilPaidOrder } from "./order-settlement";
import { clearServerCart } from "./server-cart";

export type PaymentDeps = { db: Database; config: Config; logger: Logger };

export const PAYMENT_METHODS = ["coinbase", "shoppy", "stripe", "balance", "sandbox"] as const;
export type PaymentMethod = (typeof PAYMENT_METHODS)[number];

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
  if (!listing.some((gateway) => gateway.name === method && gateway.status)) {
    throw badRequest(METHOD_UNAVAILABLE, { paymentMethod: [METHOD_UNAVAILABLE] });
  }
}

const findOrderUrl = (config: Config, orderId: string) =>
  `${config.publicUrl}/find-order?id=${encodeURIComponent(orderId)}`;

/**
 * Checkout: the order is created (stock reserved, coupon counted) and committed as pending first; only
 * then is the provider asked for a hosted checkout, so no database transaction waits on the network.
 * If the provider cannot open one, the order is cancelled at once and its stock released.
 */
export async function checkout(
  deps: PaymentDeps,
  input: {
    userId: string;
    coupon?: string;
    paymentMethod: string;
    message: string;
    clientIp: string | null;
    now?: Date;
  },
): Promise<{ orderId: string; paymentUrl?: string }> {
  await assertMethodAvailable(deps.db, deps.config, input.paymentMethod);
  const created = await createOrder(deps.db, { publicUrl: deps.config.publicUrl }, input);
  if (!created.payment) return { orderId: created.orderId };

  const gateway = paymentGatewaysFor(deps.config).get(input.paymentMethod as HostedGatewayName)!;
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
    await cancelUnpaidOrder(deps.db, created.orderId);
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
  await clearServerCart(deps.db, input.userId);
  return { orderId: created.orderId, paymentUrl: opened.checkoutUrl };
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

// ---------------------------------------------------------------- webhooks

export type WebhookOutcome = "applied" | "duplicate" | "ignored";

/**
 * One webhook delivery, from raw bytes to its effect: the adapter verifies it (throws WebhookRejected),
 * then the event is applied following the caller contract in api/payments/types.ts.
 */
export async function receiveWebhook(
  deps: PaymentDeps,
  gatewayName: string,
  rawBody: string,
  headers: Headers,
  now = new Date(),
): Promise<WebhookOutcome> {
  const gateway = gatewayForWebhook(paymentGatewaysFor(deps.config), gatewayName);
  const event = await gateway.parseWebhook(rawBody, headers, now);
  if (event.type === "ignored") return "ignored";
  return applyPaymentEvent(deps, gateway.name, event, now);
}

/** Thrown inside the transaction to undo the webhook_events row of an event that must change nothing. */
class IgnoredEvent extends Error {}

export async function applyPaymentEvent(
  deps: PaymentDeps,
  gateway: HostedGatewayName,
  event: PaymentEvent,
  now = new Date(),
): Promise<WebhookOutcome> {
  const log = { gateway, eventId: event.eventId, providerEventType: event.providerEventType };
  try {
    return await deps.db.transaction(async (tx) => {
      // 1. Idempotency: the first delivery inserts the row; a concurrent duplicate waits on the key, then does nothing.
      const recorded = await tx
        .insert(webhookEvents)
        .values({ gateway, eventId: event.eventId, receivedAt: now })
        .onConflictDoNothing()
        .returning({ eventId: webhookEvents.eventId });
      if (recorded.length === 0) return "duplicate" as const;

      // 2. The payment must be one of THIS gateway's.
      const [found] = await tx
        .select({ id: payments.id, orderId: payments.orderId })
        .from(payments)
        .where(and(eq(payments.gateway, gateway), eq(payments.providerReference, event.providerReference)));
      if (!found || (event.paymentId !== undefined && event.paymentId !== found.id)) {
        deps.logger.warn("webhook for an unknown payment ignored", log);
        throw new IgnoredEvent();
      }
      // Locks in the order the expiry job takes them (order, then payment), so the two never deadlock.
      if (found.orderId)
        await tx.select({ id: orders.id }).from(orders).where(eq(orders.id, found.orderId)).for("update");
      const [payment] = await tx.select().from(payments).where(eq(payments.id, found.id)).for("update");
      await tx
        .update(webhookEvents)
        .set({ paymentId: payment.id })
        .where(and(eq(webhookEvents.gateway, gateway), eq(webhookEvents.eventId, event.eventId)));

      if (event.type === "paid") {
        // 3. The amount and currency must be what we asked for.
        if (event.amountCents !== payment.amountCents || event.currency !== payment.currency) {
          deps.logger.warn("webhook amount or currency does not match the payment; ignored", {
            ...log,
            paymentId: payment.id,
            expected: `${payment.amountCents} ${payment.currency}`,
            received: `${event.amountCents} ${event.currency}`,
          });
          throw new IgnoredEvent();
        }
        // 4. Forward only: a paid payment stays paid. Paid after failed/expired is a late payment, honoured.
        if (payment.status === "paid" || payment.status === "refunded") return "duplicate" as const;
        await tx.update(payments).set({ status: "paid", paidAt: now }).where(eq(payments.id, payment.id));
        if (payment.purpose === "topup") {
          await creditBalance(tx, payment.userId, payment.amountCents, "in", {
            paymentId: payment.id,
            note: "Balance top-up",
            now,
          });
          return "applied" as const;
        }
        const [order] = await tx
          .select({ id: orders.id, status: orders.status })
          .from(orders)
          .where(eq(orders.id, payment.orderId!))
          .for("update");
        if (order.status === "completed" || order.status === "partiallyComplete") return "applied" as const;
        await fulfilPaidOrder(tx, { publicUrl: deps.config.publicUrl }, order.id, now);
        return "applied" as const;
      }

      // failed / expired: only a pending payment moves, and its pending order ends and frees its stock.
      if (payment.status !== "pending") return "ignored" as const;
      await tx.update(payments).set({ status: event.type }).where(eq(payments.id, payment.id));
      if (payment.purpose === "order") {
        const [order] = await tx
          .select({ id: orders.id, status: orders.status, couponId: orders.couponId })
          .from(orders)
          .where(eq(orders.id, payment.orderId!))
          .for("update");
        if (order.status === "pending") {
          await closeUnpaidOrder(tx, order, event.type === "expired" ? "expired" : "cancelled", now);
        }
      }
      return "applied" as const;
    });
  } catch (error) {
    if (error instanceof IgnoredEvent) return "ignored";
    throw error;
  }
}

// ---------------------------------------------------------------- sandbox

export type SandboxPayment = {
  paymentId: string;
  orderId: string | null;
  purpose: "order" | "topup";
  amount: number;
  status: string;
};

/** What the sandbox page shows: the stored amount and where the payment belongs. */
export async function readSandboxPayment(db: Executor, paymentId: string): Promise<SandboxPayment> {
  const [payment] = await db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.gateway, "sandbox")));
  if (!payment) throw notFound("Payment not found");
  return {
    paymentId: payment.id,
    orderId: payment.orderId,
    purpose: payment.purpose,
    amount: payment.amountCents / 100,
    status: payment.status,
  };
}

/**
 * The sandbox page's Pay and Cancel buttons: signs the event as the sandbox "provider" with the STORED
 * amount and currency, and sends it through receiveWebhook, the same code path and checks as
 * POST /v1/webhooks/sandbox.
 */
export async function submitSandboxPayment(
  deps: PaymentDeps,
  paymentId: string,
  outcome: SandboxOutcome,
  now = new Date(),
): Promise<{ outcome: WebhookOutcome; orderId: string | null; purpose: "order" | "topup" }> {
  if (!paymentGatewaysFor(deps.config).has("sandbox")) throw notFound("Payment not found");
  const [payment] = await deps.db
    .select()
    .from(payments)
    .where(and(eq(payments.id, paymentId), eq(payments.gateway, "sandbox")));
  if (!payment) throw notFound("Payment not found");
  const signed = signSandboxEvent(
    { paymentId, amountCents: payment.amountCents, currency: payment.currency, outcome },
    deps.config,
    now,
  );
  const result = await receiveWebhook(deps, "sandbox", signed.body, new Headers(signed.headers), now);
  return { outcome: result, orderId: payment.orderId, purpose: payment.purpose };
}
