import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { INVALID_LINE_REASONS, STOCK_STATES } from "../../contract/stock";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's stock (/v1/admin/stock/*, ADR 025). */

const countsSchema = z.object({
  free: z.number(),
  reserved: z.number(),
  delivered: z.number(),
  replaced: z.number(),
  removed: z.number(),
  accounts: z.number(),
});
const stockOptionSchema = z.object({
  _id: z.string(),
  title: z.string(),
  active: z.boolean(),
  seats: z.number(),
  lowStockThreshold: z.number(),
  low: z.boolean(),
  product: z.object({
    _id: z.string(),
    title: z.string(),
    active: z.boolean(),
    fulfilMode: z.enum(["auto", "manual"]),
  }),
  stock: countsSchema,
});
export type StockOption = z.infer<typeof stockOptionSchema>;

const accountSchema = z.object({
  _id: z.string(),
  username: z.string(),
  batchLabel: z.string(),
  addedAt: z.string(),
  seats: z.array(z.object({ seat: z.number(), state: z.enum([...STOCK_STATES, "removed"]) })),
});
export type StockAccount = z.infer<typeof accountSchema>;

export function listStockOptions(context: AppLoadContext, request: Request, query: { page: number; search: string }) {
  const search = new URLSearchParams({ page: String(query.page), search: query.search });
  return apiPayload(context, {
    path: `/v1/admin/stock?${search}`,
    request,
    payload: z.object({ records: z.array(stockOptionSchema), pager: pagerSchema }),
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
    payload: z.object({
      option: stockOptionSchema,
      batches: z.array(z.object({ label: z.string(), free: z.number() })),
      records: z.array(accountSchema),
      pager: pagerSchema,
    }),
  });
}

const reportSchema = z.object({
  batchLabel: z.string(),
  added: z.number(),
  seats: z.number(),
  duplicate: z.object({ count: z.number(), lines: z.array(z.number()) }),
  invalid: z.object({
    count: z.number(),
    lines: z.array(z.object({ line: z.number(), reason: z.enum(INVALID_LINE_REASONS) })),
  }),
  skipped: z.number(),
  replacementsFilled: z.number(),
});
export type ImportReport = z.infer<typeof reportSchema>;

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
    payload: reportSchema,
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
    payload: z.object({ accounts: z.number(), seats: z.number() }),
  });
}

export function exportStock(context: AppLoadContext, request: Request, optionId: string) {
  return apiCall(context, {
    path: `/v1/admin/stock/${encodeURIComponent(optionId)}/export`,
    request,
    body: {},
    payload: z.object({ text: z.string(), accounts: z.number(), filename: z.string() }),
  });
}
