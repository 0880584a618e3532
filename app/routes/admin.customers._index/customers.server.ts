import type { AppLoadContext } from "@remix-run/node";
import { customerPageSchema } from "../../../contract/answers/admin-customers";
import { type ListParams, readListPage } from "~/lib/admin-list.server";

/* The customers list's /v1 client (ADR 026). */

export type { CustomerSummary } from "../../../contract/answers/admin-customers";

export function listCustomers(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/customers", query, answer: customerPageSchema });
}
