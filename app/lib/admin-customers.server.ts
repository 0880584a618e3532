import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../contract/answers/admin-customers";
import { type ListParams, adminPath, readListPage } from "./admin-list.server";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's customers and the checkout blocklist (ADR 026). */

export type {
  BlocklistEntry,
  Customer,
  CustomerSummary,
  CustomerTicket,
  StaffLedgerEntry,
} from "../../contract/answers/admin-customers";

export function listCustomers(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/customers", query, answer: answerOf.customerPageSchema });
}

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

export function listBlocklist(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/blocklist", query, answer: answerOf.blocklistPageSchema });
}

export function addBlocklistEntry(
  context: AppLoadContext,
  request: Request,
  input: { pattern: string; note: string },
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: "/v1/admin/blocklist",
    request,
    body: input,
    answer: answerOf.blocklistAddedSchema,
    idempotencyKey,
  });
}

export function removeBlocklistEntry(context: AppLoadContext, request: Request, entryId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: adminPath("blocklist", entryId),
    request,
    answer: answerOf.blocklistRemovedSchema,
  });
}
