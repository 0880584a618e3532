import { createRoute, z } from "@hono/zod-openapi";
import { sandboxPaymentSchema, sandboxSubmittedSchema, webhookTakenSchema } from "../../contract/answers/webhooks";
import { PUBLIC_ID_PATTERN } from "../../contract/ids";
import { badRequest, notFound } from "../errors";
import { ok } from "../http";
import { NO_BODY, answers, apiRouter, declareRoute, pathParams } from "../openapi";
import { WebhookRejected } from "../payments/types";
import { readSandboxPayment, receiveWebhook, submitSandboxPayment } from "../services/payments/events";
import { paymentGatewaysFor } from "../services/payments/checkout";

/**
 * POST /v1/webhooks/{gateway}: the raw body goes to the adapter untouched (signatures cover its bytes).
 * Applied, duplicate and ignored events answer 200 so the provider stops retrying; a rejected one 400,
 * an unknown gateway 404; an event for a payment we cannot find yet 503 (PaymentNotFoundYet), so the
 * provider delivers it again. Nothing from a rejected request is trusted or logged above debug.
 */
export const webhookRoutes = apiRouter().openapi(
  declareRoute(["Payments"], {
    method: "post",
    path: "/{gateway}",
    summary: "A payment provider's signed event",
    request: {
      params: z.object({ gateway: z.string().openapi({ param: { name: "gateway", in: "path" }, example: "stripe" }) }),
      // A plain schema object, not zod: the body is documented but never parsed before the adapter reads its bytes.
      body: {
        required: true,
        description: "the provider's event, exactly as signed; its signature travels in the provider's header",
        content: { "application/json": { schema: { type: "object" } } },
      },
    },
    responses: answers(200, webhookTakenSchema, "taken: `Event applied|duplicate|ignored`", {
      400: "`Webhook rejected: signature|stale|malformed`",
      404: "`Webhook rejected: unsupported`: the gateway is not enabled here",
      503: "the payment the event names is not known yet: deliver it again later",
    }),
  }),
  async (c) => {
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
      const message = `Webhook rejected: ${error.reason}`;
      throw error.reason === "unsupported" ? notFound(message) : badRequest(message);
    }
  },
);

const PAYMENT_NOT_FOUND = "Payment not found";
const SANDBOX = ["Sandbox payments"];

/** A malformed id cannot name a payment: the same 404 as an unknown one. */
function paymentIdFrom(value: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw notFound(PAYMENT_NOT_FOUND);
  return value;
}

const notFoundAnswer = { 404: "`Payment not found`, or the sandbox is off here" };

/** Pay and Cancel: a sandbox event signed with the STORED amount, through the webhook code path. */
function submitRoute(action: "pay" | "cancel", summary: string) {
  return createRoute({
    method: "post",
    path: `/payments/{paymentId}/${action}`,
    tags: SANDBOX,
    summary,
    request: { params: pathParams("paymentId"), body: NO_BODY },
    responses: answers(
      200,
      sandboxSubmittedSchema,
      "`Payment received` / `Payment cancelled`, or `Nothing changed`",
      notFoundAnswer,
    ),
  });
}

/**
 * Our addition for the sandbox gateway's page (/pay/sandbox/{paymentId}): read a sandbox payment and
 * press Pay or Cancel. Where the sandbox is off (production by default) every path answers 404, as if
 * it did not exist.
 */
const sandboxRouter = apiRouter();
sandboxRouter.use(async (c, next) => {
  if (!paymentGatewaysFor(c.get("config")).has("sandbox")) throw notFound(PAYMENT_NOT_FOUND);
  await next();
});

export const sandboxRoutes = sandboxRouter
  .openapi(
    declareRoute(SANDBOX, {
      method: "get",
      path: "/payments/{paymentId}",
      summary: "A sandbox payment, for the sandbox gateway's page",
      request: { params: pathParams("paymentId") },
      responses: answers(200, sandboxPaymentSchema, "the payment", notFoundAnswer),
    }),
    async (c) => ok(c, await readSandboxPayment(c.get("db"), paymentIdFrom(c.req.param("paymentId")))),
  )
  .openapi(submitRoute("pay", "Pay a sandbox payment"), async (c) => {
    const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
    const result = await submitSandboxPayment(deps, paymentIdFrom(c.req.param("paymentId")), "paid");
    return ok(c, result, result.outcome === "ignored" ? "Nothing changed" : "Payment received");
  })
  .openapi(submitRoute("cancel", "Cancel a sandbox payment (its stock is released at once)"), async (c) => {
    const deps = { db: c.get("db"), config: c.get("config"), logger: c.get("logger") };
    const result = await submitSandboxPayment(deps, paymentIdFrom(c.req.param("paymentId")), "failed");
    return ok(c, result, result.outcome === "ignored" ? "Nothing changed" : "Payment cancelled");
  });
