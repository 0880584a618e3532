import { z } from "@hono/zod-openapi";
import { TOP_UP_MAX_USD, usdToCents } from "../../contract/money";
import { VALID_AMOUNT, hasAtMostTwoDecimals } from "../../contract/balance";
import { balanceSheetSchema, topUpStartedSchema } from "../../contract/answers/balance";
import { ok } from "../http";
import { okOnce } from "../idempotent-answer";
import { SIGNED_IN_FAILURES, answers, apiRouter, idempotencyKeyHeader, jsonBody, signedInRoute } from "../openapi";
import { requireUser } from "../middleware/auth";
import { LEDGER_PAGE_SIZE, readBalanceSheet } from "../services/payments/balance";
import { createTopUp } from "../services/payments/checkout";

const topUpSchema = z.object({
  paymentMethod: z
    .string({ required_error: "Please choose a payment method" })
    .min(1, "Please choose a payment method")
    .max(32),
  balance: z.coerce
    .number({ invalid_type_error: VALID_AMOUNT, required_error: VALID_AMOUNT })
    .finite(VALID_AMOUNT)
    .positive(VALID_AMOUNT)
    .max(TOP_UP_MAX_USD, `${VALID_AMOUNT}: at most $${TOP_UP_MAX_USD.toLocaleString("en-US")} at once`)
    .refine(hasAtMostTwoDecimals, VALID_AMOUNT),
});

const sheetQuerySchema = z.object({
  page: z.coerce
    .number({ invalid_type_error: "Page must be a whole number" })
    .int("Page must be a whole number")
    .min(1, "Page starts at 1")
    .max(100_000)
    .optional()
    .default(1),
});

const BALANCE = ["Balance"];

export const balanceRoutes = apiRouter()
  .openapi(
    signedInRoute(BALANCE, {
      method: "get",
      path: "/read",
      summary: `The customer's balance and one page of ledger entries (${LEDGER_PAGE_SIZE} a page), newest first`,
      request: { query: sheetQuerySchema },
      responses: answers(200, balanceSheetSchema, "the balance sheet", SIGNED_IN_FAILURES),
    }),
    async (c) => {
      return ok(c, await readBalanceSheet(c.get("db"), requireUser(c).id, c.req.valid("query").page));
    },
  )
  .openapi(
    signedInRoute(BALANCE, {
      method: "post",
      path: "/create",
      summary: "Top up the balance through a hosted gateway",
      request: { headers: idempotencyKeyHeader, body: jsonBody(topUpSchema) },
      responses: answers(201, topUpStartedSchema, "send the customer to `paymentUrl`", {
        ...SIGNED_IN_FAILURES,
        403: "the account's email is refused at checkout (the blocklist)",
        409: "the same Idempotency-Key still in progress",
        422: "the Idempotency-Key was used with another body",
        503: "the payment provider cannot be reached",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      const input = c.req.valid("json");
      return okOnce(c, { scope: `user:${user.id}`, route: "balance/create", body: input }, async () => {
        const { paymentUrl } = await createTopUp(
          { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
          { userId: user.id, amountCents: usdToCents(input.balance), paymentMethod: input.paymentMethod },
        );
        return { status: 201, message: "Redirecting to payment…", payload: { paymentUrl } };
      });
    },
  );
