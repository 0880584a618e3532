import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { apiCall, apiPayload } from "./api.server";
import { withQuery } from "./list-query";

/*
 * The one read behind every back-office list (ADR 048): GET `path` with the list's URL state as its query, empty
 * values left out (the API's defaults are the lists' defaults). `readListPage` throws a refusal to the error
 * boundary, as loaders want; `tryListPage` answers it, for a list that shows a refused filter (orders).
 */

/** A list's URL state as the API reads it (listQuery's answer fits). */
export type ListParams = Record<string, string | number>;
export type ListRead<S extends z.ZodTypeAny> = { path: string; query: ListParams; answer: S };

/** The address of one back-office record, or of a command on it: adminPath("coupons", id, "/deactivate"). */
export function adminPath(resource: string, id: string, tail = "") {
  return `/v1/admin/${resource}/${encodeURIComponent(id)}${tail}`;
}

export function readListPage<S extends z.ZodTypeAny>(context: AppLoadContext, request: Request, read: ListRead<S>) {
  return apiPayload(context, { path: withQuery(read.path, read.query), request, answer: read.answer });
}

export function tryListPage<S extends z.ZodTypeAny>(context: AppLoadContext, request: Request, read: ListRead<S>) {
  return apiCall(context, { path: withQuery(read.path, read.query), request, answer: read.answer });
}
