import type { AppLoadContext } from "@remix-run/node";
import {
  importReportSchema,
  optionStockSchema,
  stockExportSchema,
  stockRemovedSchema,
} from "../../../contract/answers/admin-stock";
import { type ListParams, adminPath, readListPage } from "~/lib/admin-list.server";
import { apiCall } from "~/lib/api.server";

/* The stock page's /v1 client (/v1/admin/stock/:optionId*, ADR 025): one option's accounts, import, removal, export. */

export type { ImportReport, StockAccount } from "../../../contract/answers/admin-stock";

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
