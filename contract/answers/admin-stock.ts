import { z } from "zod";
import { FULFIL_MODES } from "../admin-catalogue";
import { INVALID_LINE_REASONS, STOCK_REPORT_MAX_LINES, STOCK_STATES } from "../stock";
import { isoDateSchema, pageOf, pagerSchema, withId } from "./common";

/* The back office's stock (/v1/admin/stock, ADR 025). */

/** An option's seats in each state, and its accounts. */
export const stockCountsSchema = z.object({
  free: z.number().int().describe("available seats: what the shop sells"),
  reserved: z.number().int(),
  delivered: z.number().int(),
  replaced: z.number().int(),
  removed: z.number().int().describe("seats staff took off sale"),
  accounts: z.number().int().describe("accounts (username and password) not wholly removed"),
});
export type StockCounts = z.infer<typeof stockCountsSchema>;

/** An option with its stock. */
export const stockOptionSchema = withId({
  title: z.string(),
  active: z.boolean(),
  seats: z.number().int().describe("buyers each imported account is sold to"),
  lowStockThreshold: z.number().int(),
  low: z.boolean().describe("free seats are under the threshold"),
  product: z.object({ _id: z.string(), title: z.string(), active: z.boolean(), fulfilMode: z.enum(FULFIL_MODES) }),
  stock: stockCountsSchema,
});
export type StockOption = z.infer<typeof stockOptionSchema>;

/** Every option with its stock, a page (GET /v1/admin/stock). */
export const stockOptionPageSchema = pageOf(stockOptionSchema);
export type StockOptionPage = z.infer<typeof stockOptionPageSchema>;

const stockAccountSchema = z.object({
  _id: z.string().describe("one of the account's rows; names the account in a removal"),
  username: z.string(),
  batchLabel: z.string(),
  addedAt: isoDateSchema,
  seats: z.array(z.object({ seat: z.number().int(), state: z.enum([...STOCK_STATES, "removed"]) })),
});
export type StockAccount = z.infer<typeof stockAccountSchema>;

/** One option's stock: its batches and a page of its accounts (GET /v1/admin/stock/{optionId}). */
export const optionStockSchema = z.object({
  option: stockOptionSchema,
  batches: z.array(z.object({ label: z.string(), free: z.number().int() })),
  records: z.array(stockAccountSchema),
  pager: pagerSchema,
});
export type OptionStock = z.infer<typeof optionStockSchema>;

/** What an import added, refused and skipped (POST /v1/admin/stock/{optionId}/import). */
export const importReportSchema = z.object({
  batchLabel: z.string().describe("the label given, or the one made from the time"),
  added: z.number().int().describe("accounts added"),
  seats: z.number().int().describe("seats added: accounts × the option's seats"),
  duplicate: z.object({
    count: z.number().int(),
    lines: z.array(z.number().int()).describe(`line numbers, the first ${STOCK_REPORT_MAX_LINES}`),
  }),
  invalid: z.object({
    count: z.number().int(),
    lines: z.array(z.object({ line: z.number().int(), reason: z.enum(INVALID_LINE_REASONS) })),
  }),
  skipped: z.number().int().describe("blank lines and bare ':' lines"),
  replacementsFilled: z.number().int().describe("waiting replacement requests filled first"),
});
export type ImportReport = z.infer<typeof importReportSchema>;

/** How many accounts and seats were taken off sale (POST /v1/admin/stock/{optionId}/remove). */
export const stockRemovedSchema = z.object({ accounts: z.number().int(), seats: z.number().int() });
export type StockRemoved = z.infer<typeof stockRemovedSchema>;

/** The unsold accounts as `username:password` lines (POST /v1/admin/stock/{optionId}/export). */
export const stockExportSchema = z.object({ text: z.string(), accounts: z.number().int(), filename: z.string() });
export type StockExport = z.infer<typeof stockExportSchema>;
