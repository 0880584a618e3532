import type { AppLoadContext } from "@remix-run/node";
import { stockOptionPageSchema } from "../../../contract/answers/admin-stock";
import { type ListParams, readListPage } from "~/lib/admin-list.server";

/* The stock list's /v1 client (/v1/admin/stock, ADR 025): each option with its counts. */

export type { StockOption } from "../../../contract/answers/admin-stock";

export function listStockOptions(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/stock", query, answer: stockOptionPageSchema });
}
