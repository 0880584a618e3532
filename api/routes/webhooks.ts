import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { PUBLIC_ID_PATTERN } from "../db/ids";
import { notFound } from "../errors";
import { ok } from "../http";
import { WebhookRejected } from "../payments/types";
import { readSandboxPayment, receiveWebhook, submitSandboxPayment } from "../services/payment-events";
import { paymentGatewaysFor } from "../services/payments";

/**
 * POST /v1/webhooks/{gateway}: the raw body goes to the adapter untouched (signatures cover its bytes).
 * Applied, duplicate and ignored events answer 200 so the provider stops retrying; a rejected one 400,
 * an unknown gateway 404; an event for a payment we cannot find yet 503 (PaymentNotFoundYet), so the
 * provider delivers it again. Nothing from a rejected request is trusted or logged above debug.
 */
export const webhookRoutes = new Hono<ApiEnv>().post("/:gateway", async (c) => {
  const rawBody = await c.req.text();
  try {
    const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
    const outcome = await receiveWebhook(deps, c.req.param("gateway"), rawBody, c.req.raw.headers);
    return ok(c, { outcome }, `Event ${outcome}`);
  } catch (error) {
    if (!(error instanceof WebhookRejected)) throw error;
    c.get("logger").debug("webhook rejected", {
      gateway: c.req.param("gateway"),
      reason: error.reason,
      message: error.message,
    });
    const status = error.reason === "unsupported" ? 404 : 400;
    return c.json({ success: false as const, message: `Webhook rejected: ${error.reason}` }, status);
  }
});

const PAYMENT_NOT_FOUND = "Payment not found";
const outcomeByAction = { pay: "paid", cancel: "failed" } as const;

/** A malformed id cannot name a payment: the same 404 as an unknown one. */
function paymentIdFrom(value: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw notFound(PAYMENT_NOT_FOUND);
  return value;
}

/**
 * Our addition for the sandbox gateway's page (/pay/sandbox/{paymentId}): read a sandbox payment and
 * press Pay or Cancel. Pressing signs an event with the STORED amount and sends it through the same
 * webhook code path as a real provider. Where the sandbox is off (production by default) every path
 * answers 404, as if it did not exist.
 */
export const sandboxRoutes = new Hono<ApiEnv>()
  .use(async (c, next) => {
    if (!paymentGatewaysFor(c.get("config")).has("sandbox")) throw notFound(PAYMENT_NOT_FOUND);
    await next();
  })
  .get("/payments/:paymentId", async (c) =>
    ok(c, await readSandboxPayment(c.get("db"), paymentIdFrom(c.req.param("paymentId")))),
  )
  .post("/payments/:paymentId/:action{pay|cancel}", async (c) => {
    const paymentId = paymentIdFrom(c.req.param("paymentId"));
    const action = c.req.param("action") as keyof typeof outcomeByAction;
    const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
    const result = await submitSandboxPayment(deps, paymentId, outcomeByAction[action]);
    const message = action === "pay" ? "Payment received" : "Payment cancelled";
    return ok(c, result, result.outcome === "ignored" ? "Nothing changed" : message);
  });
