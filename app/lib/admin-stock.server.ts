import type { AppLoadContext } from "@remix-run/node";
import {
  importReportSchema,
  optionStockSchema,
  stockExportSchema,
  stockOptionPageSchema,
  stockRemovedSchema,
} from "../../contract/answers/admin-stock";
import { type ListParams, adminPath, readListPage } from "./admin-list.server";
import { apiCall } from "./api.server";

/* The /v1 client of the back office's stock (/v1/admin/stock/*, ADR 025). */

export type { ImportReport, StockAccount, StockOption } from "../../contract/answers/admin-stock";

export function listStockOptions(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/stock", query, answer: stockOptionPageSchema });
}

/** The option, its counts and batches, and one page of its accounts. */
export function readOptionStock(context: AppLoadContext, request: Request, optionId: string, query: ListParams) {
  const path = adminPath("stock", optionId);
  return readListPage(context, request, { path, query, answer: optionStockSchema });
}

/** Pasted credentials, one per line, and the batch label they are filed under. */
type StockImportInput = { text: string; label: string };
/** Chosen accounts, or a whole batch by its label. */
type StockRemoval = { accounts: string[] } | { batchLabel: string };

const commandPath = (optionId: string, command: string) => adminPath("stock", optionId, `/${command}`);

export function importStock(context: AppLoadContext, request: Request, optionId: string, input: StockImportInput) {
  return apiCall(context, { path: commandPath(optionId, "import"), request, body: input, answer: importReportSchema });
}

export function removeStock(context: AppLoadContext, request: Request, optionId: string, input: StockRemoval) {
  return apiCall(context, { path: commandPath(optionId, "remove"), request, body: input, answer: stockRemovedSchema });
}

export function exportStock(context: AppLoadContext, request: Request, optionId: string) {
  return apiCall(context, { path: commandPath(optionId, "export"), request, body: {}, answer: stockExportSchema });
}
