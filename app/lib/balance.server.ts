import type { AppLoadContext } from "@remix-run/node";
import { balanceSheetSchema, topUpStartedSchema } from "../../contract/answers/balance";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the balance: the paged balance sheet and top-ups through a hosted gateway. */

export type { BalanceEntry } from "../../contract/answers/balance";

export function readBalanceSheet(context: AppLoadContext, request: Request, page: number) {
  return apiPayload(context, { path: `/v1/balance/read?page=${page}`, request, answer: balanceSheetSchema });
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
    answer: topUpStartedSchema,
  });
}
