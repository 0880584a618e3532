import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import { formatDecimalAmount, parseDecimalAmount } from "../../api/payments/amounts";
import { createPaymentGateways, gatewayForWebhook } from "../../api/payments/registry";
import { WebhookRejected } from "../../api/payments/types";
import { TEST_CREDENTIALS_KEY } from "../support/credentials-key";

const base = {
  NODE_ENV: "test" as const,
  DATA_DIR: "/tmp/store-payments-test-data",
  SESSION_SECRET: "payments-test-secret-".padEnd(40, "x"),
  CREDENTIALS_KEY: TEST_CREDENTIALS_KEY,
};
const allGateways = {
  STRIPE_SECRET_KEY: "sk_test_key_123",
  STRIPE_WEBHOOK_SECRET: "whsec_secret_123",
  COINBASE_API_KEY: "coinbase-key-123",
  COINBASE_WEBHOOK_SECRET: "coinbase-secret-123",
  SHOPPY_API_KEY: "shoppy-key-123",
  SHOPPY_WEBHOOK_SECRET: "shoppy-secret-123",
};

describe("payment gateway configuration", () => {
  it("enables no hosted gateway when no keys are set, and the sandbox only outside production", () => {
    const development = loadConfig({ ...base, NODE_ENV: "development" });
    expect(development.payments).toEqual({ stripe: undefined, coinbase: undefined, shoppy: undefined, sandbox: true });
    expect([...createPaymentGateways(development).keys()]).toEqual(["sandbox"]);

    const production = loadConfig({ ...base, NODE_ENV: "production" });
    expect(production.payments.sandbox).toBe(false);
    expect(createPaymentGateways(production).size).toBe(0);
    expect(loadConfig({ ...base, NODE_ENV: "production", SANDBOX_PAYMENTS: "true" }).payments.sandbox).toBe(true);
    expect(loadConfig({ ...base, NODE_ENV: "development", SANDBOX_PAYMENTS: "false" }).payments.sandbox).toBe(false);
  });

  it("enables each gateway whose key and webhook secret are set, with the providers' default API bases", () => {
    const config = loadConfig({ ...base, NODE_ENV: "production", ...allGateways });
    expect(config.payments).toMatchObject({
      stripe: { apiKey: "sk_test_key_123", webhookSecret: "whsec_secret_123", apiBase: "https://api.stripe.com" },
      coinbase: { apiBase: "https://api.commerce.coinbase.com" },
      shoppy: { apiBase: "https://shoppy.gg/api/v1" },
    });
    expect([...createPaymentGateways(config).keys()].sort()).toEqual(["coinbase", "shoppy", "stripe"]);
  });

  it("takes API bases for tests, without a trailing slash, and refuses a Stripe base with a path", () => {
    const config = loadConfig({ ...base, ...allGateways, COINBASE_API_BASE: "http://127.0.0.1:9999/coinbase/" });
    expect(config.payments.coinbase?.apiBase).toBe("http://127.0.0.1:9999/coinbase");
    expect(() => loadConfig({ ...base, ...allGateways, STRIPE_API_BASE: "http://127.0.0.1:9999/stripe" })).toThrow(
      /STRIPE_API_BASE must be an origin/,
    );
    expect(() => loadConfig({ ...base, ...allGateways, SHOPPY_API_BASE: "not a url" })).toThrow(ConfigError);
  });

  it("refuses to start with only half of a gateway's credentials", () => {
    expect(() => loadConfig({ ...base, STRIPE_SECRET_KEY: "sk_test_key_123" })).toThrow(
      /STRIPE_SECRET_KEY and STRIPE_WEBHOOK_SECRET must be set together/,
    );
    expect(() => loadConfig({ ...base, COINBASE_WEBHOOK_SECRET: "coinbase-secret-123" })).toThrow(ConfigError);
  });

  it("routes a webhook to an enabled gateway and rejects any other name as unsupported", () => {
    const gateways = createPaymentGateways(loadConfig({ ...base, NODE_ENV: "development", ...allGateways }));
    expect(gatewayForWebhook(gateways, "coinbase").name).toBe("coinbase");
    for (const name of ["balance", "paypal", "__proto__", ""]) {
      let error: unknown;
      try {
        gatewayForWebhook(gateways, name);
      } catch (caught) {
        error = caught;
      }
      expect(error).toBeInstanceOf(WebhookRejected);
      expect((error as WebhookRejected).reason).toBe("unsupported");
    }
  });
});

describe("exact decimal amounts", () => {
  it("parses provider decimals into integer cents without floating point error", () => {
    expect(parseDecimalAmount("12.50")).toBe(1250);
    expect(parseDecimalAmount("0.29")).toBe(29);
    expect(parseDecimalAmount("1.1")).toBe(110);
    expect(parseDecimalAmount("19.99")).toBe(1999);
    expect(parseDecimalAmount("1005.00")).toBe(100500);
    expect(parseDecimalAmount("7")).toBe(700);
    expect(parseDecimalAmount("12.5000")).toBe(1250);
    expect(parseDecimalAmount(0.07)).toBe(7);
    expect(parseDecimalAmount(4.35)).toBe(435);
  });

  it("rejects anything that is not a plain non-negative amount in whole cents", () => {
    for (const bad of ["12.505", "12.", ".5", "-1", "+1", "1e2", "0x10", "12,50", " 1", "1 ", "", "NaN", "Infinity"]) {
      expect(parseDecimalAmount(bad), bad).toBeNull();
    }
    for (const bad of [null, undefined, {}, [], true, Number.NaN, Infinity, 1e21, 0.001, -5]) {
      expect(parseDecimalAmount(bad), String(bad)).toBeNull();
    }
  });

  it("formats cents as the decimal strings providers expect", () => {
    expect(formatDecimalAmount(1250)).toBe("12.50");
    expect(formatDecimalAmount(5)).toBe("0.05");
    expect(formatDecimalAmount(100000)).toBe("1000.00");
    expect(() => formatDecimalAmount(12.5)).toThrow(RangeError);
    expect(() => formatDecimalAmount(-1)).toThrow(RangeError);
  });
});
