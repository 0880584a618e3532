import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-customers";
import { type ListParams, adminPath, readListPage } from "~/lib/admin-list.server";
import { apiCall } from "~/lib/api.server";

/* The checkout blocklist's /v1 client (ADR 026). */

export type { BlocklistEntry } from "../../../contract/answers/admin-customers";

export function listBlocklist(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/blocklist", query, answer: answerOf.blocklistPageSchema });
}

export function addBlocklistEntry(
  context: AppLoadContext,
  request: Request,
  input: { pattern: string; note: string },
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: "/v1/admin/blocklist",
    request,
    body: input,
    answer: answerOf.blocklistAddedSchema,
    idempotencyKey,
  });
}

export function removeBlocklistEntry(context: AppLoadContext, request: Request, entryId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: adminPath("blocklist", entryId),
    request,
    answer: answerOf.blocklistRemovedSchema,
  });
}
