import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-customers";
import { adminPath, readListPage } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* A customer's page's /v1 client: the account with its lists, balance adjustments, blocking (ADR 026). */

export type { Customer, CustomerTicket, StaffLedgerEntry } from "../../../contract/answers/admin-customers";

/** One customer's page: the account, and one page each of its orders, tickets and ledger. */
export async function readCustomerPage(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  pages: { orders: number; tickets: number; ledger: number },
) {
  const base = adminPath("customers", customerId);
  const page = (list: keyof typeof pages) => ({ path: `${base}/${list}`, query: { page: pages[list] } });
  const [customer, orders, tickets, ledger] = await Promise.all([
    apiPayload(context, { path: base, request, answer: answerOf.customerSchema }),
    readListPage(context, request, { ...page("orders"), answer: answerOf.customerOrderPageSchema }),
    readListPage(context, request, { ...page("tickets"), answer: answerOf.customerTicketPageSchema }),
    readListPage(context, request, { ...page("ledger"), answer: answerOf.staffLedgerPageSchema }),
  ]);
  return { customer, orders, tickets, ledger };
}

export function adjustBalance(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  input: { direction: "credit" | "debit"; amount: number; reason: string },
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: adminPath("customers", customerId, "/balance"),
    request,
    body: input,
    answer: answerOf.adjustedBalanceSchema,
    idempotencyKey,
  });
}

export function setBlocked(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  input: { blocked: boolean; reason: string },
) {
  return apiCall(context, {
    path: `/v1/admin/customers/${encodeURIComponent(customerId)}/${input.blocked ? "block" : "unblock"}`,
    request,
    body: { reason: input.reason },
    answer: answerOf.customerSchema,
  });
}
