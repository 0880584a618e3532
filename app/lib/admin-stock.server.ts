import type { AppLoadContext } from "@remix-run/node";
import {
  importReportSchema,
  optionStockSchema,
  stockExportSchema,
  stockOptionPageSchema,
  stockRemovedSchema,
} from "../../contract/answers/admin-stock";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's stock (/v1/admin/stock/*, ADR 025). */

export type { ImportReport, StockAccount, StockOption } from "../../contract/answers/admin-stock";

export function listStockOptions(context: AppLoadContext, request: Request, query: { page: number; search: string }) {
  const search = new URLSearchParams({ page: String(query.page), search: query.search });
  return apiPayload(context, {
    path: `/v1/admin/stock?${search}`,
    request,
    answer: stockOptionPageSchema,
  });
}

export type OptionStockFilters = { search: string; state: string; batch: string };

export function readOptionStock(
  context: AppLoadContext,
  request: Request,
  optionId: string,
  query: OptionStockFilters & { page: number },
) {
  const search = new URLSearchParams({ ...query, page: String(query.page) });
  return apiPayload(context, {
    path: `/v1/admin/stock/${encodeURIComponent(optionId)}?${search}`,
    request,
    answer: optionStockSchema,
  });
}

export function importStock(
  context: AppLoadContext,
  request: Request,
  optionId: string,
  input: { text: string; label: string },
) {
  return apiCall(context, {
    path: `/v1/admin/stock/${encodeURIComponent(optionId)}/import`,
    request,
    body: input,
    answer: importReportSchema,
  });
}

export function removeStock(
  context: AppLoadContext,
  request: Request,
  optionId: string,
  input: { accounts: string[] } | { batchLabel: string },
) {
  return apiCall(context, {
    path: `/v1/admin/stock/${encodeURIComponent(optionId)}/remove`,
    request,
    body: input,
    answer: stockRemovedSchema,
  });
}

export function exportStock(context: AppLoadContext, request: Request, optionId: string) {
  return apiCall(context, {
    path: `/v1/admin/stock/${encodeURIComponent(optionId)}/export`,
    request,
    body: {},
    answer: stockExportSchema,
  });
}
