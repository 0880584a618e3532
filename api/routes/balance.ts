import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { jsonBody, ok } from "../http";
import { okOnce } from "../idempotent-answer";
import { requireUser } from "../middleware/auth";
import { readBalanceSheet } from "../services/balance";
import { usdToCents } from "../services/money";
import { createTopUp } from "../services/payments";

const VALID_AMOUNT = "Please enter a valid amount";

const topUpSchema = z.object({
  paymentMethod: z
    .string({ required_error: "Please choose a payment method" })
    .min(1, "Please choose a payment method")
    .max(32),
  balance: z.coerce
    .number({ invalid_type_error: VALID_AMOUNT, required_error: VALID_AMOUNT })
    .finite(VALID_AMOUNT)
    .positive(VALID_AMOUNT)
    .max(10_000, "At most $10,000 can be added at once")
    .refine((usd) => Number.isInteger(Math.round(usd * 100 * 1e6) / 1e6), "Amounts have at most two decimals"),
});

export const balanceRoutes = new Hono<ApiEnv>()
  .get("/read", async (c) => {
    const user = requireUser(c);
    return ok(c, await readBalanceSheet(c.get("db"), user.id));
  })
  .post("/create", async (c) => {
    const user = requireUser(c);
    const input = await jsonBody(c, topUpSchema);
    return okOnce(c, { scope: `user:${user.id}`, route: "balance/create", body: input }, async () => {
      const { paymentUrl } = await createTopUp(
        { db: c.get("db"), config: c.get("config"), logger: c.get("logger") },
        { userId: user.id, amountCents: usdToCents(input.balance), paymentMethod: input.paymentMethod },
      );
      return { status: 201, message: "Redirecting to payment…", payload: { paymentUrl } };
    });
  });
