import { ORDER_STATUSES, type OrderStatus } from "../../../contract/browser/order";
import type { OrderListQuery } from "~/lib/orders.server";

/*
 * The dashboard's order list state lives in the URL (filters, view, page), so a GET form and links change
 * it without JavaScript and a reload keeps what was chosen.
 */

/** The list's words for each status: short, as "No {status} orders found." reads them (spec section 8). */
export const STATUS_LABELS: Record<OrderStatus, string> = {
  pending: "Pending",
  processing: "Processing",
  completed: "Completed",
  partiallyComplete: "Partially complete",
  expired: "Expired",
  cancelled: "Cancelled",
};
export const ALL_STATUSES = "all";
export const SORTS = { createdAt: "Newest first", price: "Highest price first" } as const;

export type OrderListView = "cards" | "table";
export type DashboardQuery = OrderListQuery & { view: OrderListView };

/** The list's query from the URL; a value that is not one of the choices reads as its default. */
export function dashboardQuery(url: URL): DashboardQuery {
  const params = url.searchParams;
  const status = params.get("status");
  const page = Number(params.get("page"));
  return {
    // Spec section 4: the list starts on completed orders; "all" lifts the filter.
    status:
      status === ALL_STATUSES ? undefined : (ORDER_STATUSES.find((candidate) => candidate === status) ?? "completed"),
    search: (params.get("search") ?? "").trim().slice(0, 200),
    sortBy: params.get("sortBy") === "price" ? "price" : "createdAt",
    page: Number.isInteger(page) && page >= 1 && page <= 100_000 ? page : 1,
    view: params.get("view") === "table" ? "table" : "cards",
  };
}

/** A dashboard URL with `changes` applied to the current query, defaults left out. */
export function dashboardHref(query: DashboardQuery, changes: Partial<DashboardQuery>): string {
  const next = { ...query, ...changes };
  const params = new URLSearchParams();
  if (next.status !== "completed") params.set("status", next.status ?? ALL_STATUSES);
  if (next.search) params.set("search", next.search);
  if (next.sortBy !== "createdAt") params.set("sortBy", next.sortBy);
  if (next.view !== "cards") params.set("view", next.view);
  if (next.page !== 1) params.set("page", String(next.page));
  const search = params.toString();
  return search ? `/dashboard?${search}` : "/dashboard";
}
