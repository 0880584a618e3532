import { z } from "zod";
import { STAFF_AUTHOR } from "../browser/ticket";
import { isoDateSchema, pagerSchema, usdSchema, withId } from "./common";

/** One page of the customer's balance sheet (GET /v1/balance/read). */
export const balanceSheetSchema = z.object({
  balance: usdSchema,
  records: z.array(
    withId({
      createdAt: isoDateSchema,
      type: z.enum(["in", "out", "refund", "adjustment"]).describe("`out` is a debit, the others credits"),
      amount: usdSchema,
      note: z.string().describe("what it was for; the reason of a change staff made"),
      orderId: z.string().nullable(),
      by: z
        .literal(STAFF_AUTHOR)
        .nullable()
        .describe("`Admin` when staff made the change by hand (a balance adjustment), else null"),
    }),
  ),
  pager: pagerSchema,
});
export type BalanceSheet = z.infer<typeof balanceSheetSchema>;
export type BalanceEntry = BalanceSheet["records"][number];

/** A top-up started at a hosted gateway (POST /v1/balance/create): send the customer to `paymentUrl`. */
export const topUpStartedSchema = z.object({ paymentUrl: z.string().url() });
