import type { Config } from "../config";
import { createCoinbaseGateway } from "./coinbase";
import { createSandboxGateway } from "./sandbox";
import { createShoppyGateway } from "./shoppy";
import { createStripeGateway } from "./stripe";
import { WebhookRejected, type HostedGatewayName, type PaymentGateway } from "./types";

export type PaymentGateways = ReadonlyMap<HostedGatewayName, PaymentGateway>;

/**
 * The hosted gateways this process can really take money through: those whose API key and webhook secret
 * are configured, and the sandbox where it is allowed. /v1/payment_gateway/read offers only these
 * (plus balance, which needs no provider). Build it once at start: the Stripe client keeps connections.
 */
export function createPaymentGateways(
  config: Pick<Config, "payments" | "publicUrl" | "sessionSecrets">,
): PaymentGateways {
  const gateways = new Map<HostedGatewayName, PaymentGateway>();
  const { stripe, coinbase, shoppy, sandbox } = config.payments;
  if (coinbase) gateways.set("coinbase", createCoinbaseGateway(coinbase));
  if (stripe) gateways.set("stripe", createStripeGateway(stripe));
  if (shoppy) gateways.set("shoppy", createShoppyGateway(shoppy, { publicUrl: config.publicUrl }));
  if (sandbox) gateways.set("sandbox", createSandboxGateway(config));
  return gateways;
}

/** The adapter for POST /v1/webhooks/{name}; a name that is not enabled here is rejected as unsupported. */
export function gatewayForWebhook(gateways: PaymentGateways, name: string): PaymentGateway {
  const gateway = gateways.get(name as HostedGatewayName);
  if (!gateway) throw new WebhookRejected("unsupported", `no enabled payment gateway is called ${name}`);
  return gateway;
}
