import { z } from "@hono/zod-openapi";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import {
  BATCH_LABEL_MAX_LENGTH,
  STOCK_PAGE_SIZE,
  STOCK_REMOVE_MAX_ACCOUNTS,
  STOCK_STATES,
  batchLabelField,
  stockTextField,
} from "../../../contract/stock";
import {
  importReportSchema,
  optionStockSchema,
  stockExportSchema,
  stockOptionPageSchema,
  stockRemovedSchema,
} from "../../../contract/answers/admin-stock";
import { badRequest } from "../../errors";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { NO_BODY, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import {
  STOCK_MESSAGES,
  exportStock,
  listStockOptions,
  readOptionStock,
  removeStock,
} from "../../services/stock/admin";
import { importStock } from "../../services/stock/admin-import";
import { FAILURES, STAFF_FAILURES, adminRoute, filterField, pageField } from "./admin-route";

/*
 * /v1/admin/stock: each option's stock, its import, removal and export (ADR 025). Area `catalogue`.
 */

const NO_OPTION = { 404: "no option has this id" };

/** A malformed id cannot name an option: 400 before any query. */
function optionIdOf(value: string): string {
  if (!PUBLIC_ID_PATTERN.test(value)) throw badRequest("Invalid option id", { optionId: ["Invalid option id"] });
  return value;
}

const stateSchema = z.enum(STOCK_STATES);
const rowIdSchema = z.string().regex(PUBLIC_ID_PATTERN, "Invalid credential id");

export const stockRoutes = apiRouter()
  .openapi(
    adminRoute("catalogue", {
      method: "get",
      path: "/stock",
      summary: `Every option with its stock, in shop order, ${STOCK_PAGE_SIZE} a page`,
      request: {
        query: z.object({ page: pageField, search: filterField("search", "part of the product's or option's title") }),
      },
      responses: answers(200, stockOptionPageSchema, "a page of options", FAILURES),
    }),
    async (c) => ok(c, await listStockOptions(c.get("db"), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("catalogue", {
      method: "get",
      path: "/stock/{optionId}",
      summary: `One option's stock: an account a row with each seat's state, newest first, ${STOCK_PAGE_SIZE} a page`,
      description:
        "Passwords are not shown (the export has them). Filters: `search` (part of the username), `state` (accounts with a seat in it), `batch` (the exact label).",
      request: {
        params: pathParams("optionId"),
        query: z.object({
          page: pageField,
          search: filterField("search", "part of the username"),
          state: z
            .union([stateSchema, z.literal("")])
            .default("")
            .openapi({ param: { name: "state", in: "query" }, description: "accounts with a seat in this state" }),
          batch: filterField("batch", "the exact batch label"),
        }),
      },
      responses: answers(200, optionStockSchema, "the option and a page of its accounts", {
        ...FAILURES,
        ...NO_OPTION,
      }),
    }),
    async (c) =>
      ok(c, await readOptionStock(c.get("db"), optionIdOf(c.req.valid("param").optionId), c.req.valid("query"))),
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/stock/{optionId}/import",
      summary: "Import credentials, one `username:password` a line; audited",
      description:
        "Blank lines and a bare ':' are skipped; a line that does not parse is reported by number. Duplicates are refused against the option's whole stock (any state) and within the text. Each account gets the option's seats. Waiting replacement requests are filled first.",
      request: {
        params: pathParams("optionId"),
        body: jsonBody(z.object({ text: stockTextField, label: batchLabelField })),
      },
      responses: answers(200, importReportSchema, "what was added, refused and skipped", {
        ...FAILURES,
        ...NO_OPTION,
      }),
    }),
    async (c) => {
      const optionId = optionIdOf(c.req.valid("param").optionId);
      const report = await importStock(c.get("db"), staffActor(c), c.get("config"), {
        optionId,
        ...c.req.valid("json"),
      });
      return ok(c, report, `Added ${report.added} credential${report.added === 1 ? "" : "s"}`);
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/stock/{optionId}/remove",
      summary: "Take unsold seats off sale: of chosen accounts, or of a batch; audited",
      description:
        "`accounts` names accounts by any of their rows' ids; `batchLabel` a whole batch. Sold seats are kept. Nothing left to remove: 409.",
      request: {
        params: pathParams("optionId"),
        body: jsonBody(
          z
            .object({
              accounts: z
                .array(rowIdSchema)
                .max(STOCK_REMOVE_MAX_ACCOUNTS, `At most ${STOCK_REMOVE_MAX_ACCOUNTS} at a time`)
                .optional(),
              batchLabel: z.string().max(BATCH_LABEL_MAX_LENGTH).optional(),
            })
            .refine((body) => !!body.accounts?.length !== (body.batchLabel !== undefined), {
              message: STOCK_MESSAGES.chooseWhatToRemove,
            }),
        ),
      },
      responses: answers(200, stockRemovedSchema, "how many accounts and seats were taken off sale", {
        ...FAILURES,
        ...NO_OPTION,
        409: "nothing unsold to remove",
      }),
    }),
    async (c) => {
      const optionId = optionIdOf(c.req.valid("param").optionId);
      const removed = await removeStock(c.get("db"), staffActor(c), c.get("config"), {
        optionId,
        ...c.req.valid("json"),
      });
      return ok(
        c,
        removed,
        `Removed ${removed.accounts} credential${removed.accounts === 1 ? "" : "s"} (${removed.seats} unsold seat${removed.seats === 1 ? "" : "s"})`,
      );
    },
  )
  .openapi(
    adminRoute("catalogue", {
      method: "post",
      path: "/stock/{optionId}/export",
      summary: "The unsold accounts as `username:password` lines; audited",
      description: "Accounts with at least one free seat, once each, oldest first: the import's format.",
      request: { params: pathParams("optionId"), body: NO_BODY },
      responses: answers(200, stockExportSchema, "the lines", { ...STAFF_FAILURES, ...NO_OPTION }),
    }),
    async (c) => {
      const exported = await exportStock(c.get("db"), staffActor(c), optionIdOf(c.req.valid("param").optionId));
      return ok(c, exported, `Exported ${exported.accounts} credential${exported.accounts === 1 ? "" : "s"}`);
    },
  );
