import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the balance: the paged balance sheet and top-ups through a hosted gateway. */

const pagerSchema = z.object({
  page: z.number().int(),
  previous: z.number().int().nullable(),
  next: z.number().int().nullable(),
  total: z.number().int(),
  pages: z.number().int(),
});
export type Pager = z.infer<typeof pagerSchema>;

const balanceSheetSchema = z.object({
  balance: z.number(),
  records: z.array(
    z.object({
      _id: z.string(),
      createdAt: z.string(),
      type: z.enum(["in", "out", "refund", "adjustment"]),
      amount: z.number(),
      note: z.string(),
      orderId: z.string().nullable(),
      by: z.string().nullable(),
    }),
  ),
  pager: pagerSchema,
});
export type BalanceEntry = z.infer<typeof balanceSheetSchema>["records"][number];

export function readBalanceSheet(context: AppLoadContext, request: Request, page: number) {
  return apiPayload(context, { path: `/v1/balance/read?page=${page}`, request, payload: balanceSheetSchema });
}

/** Starts a top-up; the form's idempotency key makes a repeated post answer the first payment page. */
export function createTopUp(
  context: AppLoadContext,
  request: Request,
  input: { balance: number; paymentMethod: string },
  idempotencyKey: string,
) {
  return apiCall(context, {
    path: "/v1/balance/create",
    request,
    idempotencyKey,
    body: input,
    payload: z.object({ paymentUrl: z.string().url() }),
  });
}
