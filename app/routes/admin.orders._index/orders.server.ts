import type { AppLoadContext } from "@remix-run/node";
import { adminOrderPageSchema } from "../../../contract/answers/admin-orders";
import { type ListParams, tryListPage } from "~/lib/admin-list.server";

/* The orders list's /v1 client (/v1/admin/orders, ADR 028). */

export type { AdminOrderRow } from "../../../contract/answers/admin-orders";

/** An ApiResult, not a thrown refusal: the search shows a filter the API refused (a bad date) above the list. */
export function searchOrders(context: AppLoadContext, request: Request, query: ListParams) {
  return tryListPage(context, request, { path: "/v1/admin/orders", query, answer: adminOrderPageSchema });
}
