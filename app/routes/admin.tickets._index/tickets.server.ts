import type { AppLoadContext } from "@remix-run/node";
import { staffTicketPageSchema } from "../../../contract/answers/admin-inbox";
import { type ListParams, readListPage } from "~/lib/admin-list.server";

/* The tickets list's /v1 client (ADR 029). */

export type { StaffTicketSummary } from "../../../contract/answers/admin-inbox";

export function listTickets(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/tickets", query, answer: staffTicketPageSchema });
}
