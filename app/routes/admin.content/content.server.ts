import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-content";
import { adminPath } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* The content page's /v1 client: the FAQ, social links, announcement and documents (ADR 031). */

export type { AdminContent } from "../../../contract/answers/admin-content";

export function readContent(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/content", request, answer: answerOf.adminContentSchema });
}

/** The FAQ and the social links share their calls: `list` names which. */
export type OrderedList = "faqs" | "social-links";
const rowPath = (list: OrderedList, rowId: string) => `/v1/admin/${list}/${encodeURIComponent(rowId)}`;
/** What adding or editing a row of `list` answers. */
const rowAnswer = (list: OrderedList) => (list === "faqs" ? answerOf.adminFaqSchema : answerOf.adminSocialLinkSchema);

export function addRow(
  context: AppLoadContext,
  request: Request,
  list: OrderedList,
  body: Record<string, string>,
  idempotencyKey?: string,
) {
  return apiCall(context, { path: `/v1/admin/${list}`, request, body, answer: rowAnswer(list), idempotencyKey });
}

export function editRow(
  context: AppLoadContext,
  request: Request,
  list: OrderedList,
  rowId: string,
  body: Record<string, string>,
) {
  return apiCall(context, { method: "PUT", path: rowPath(list, rowId), request, body, answer: rowAnswer(list) });
}

export function moveRow(
  context: AppLoadContext,
  request: Request,
  list: OrderedList,
  rowId: string,
  direction: "up" | "down",
) {
  return apiCall(context, {
    path: `${rowPath(list, rowId)}/move`,
    request,
    body: { direction },
    answer: answerOf.rowMovedSchema,
  });
}

export function deleteRow(context: AppLoadContext, request: Request, list: OrderedList, rowId: string) {
  return apiCall(context, { method: "DELETE", path: rowPath(list, rowId), request, answer: answerOf.rowDeletedSchema });
}

export function setAnnouncement(context: AppLoadContext, request: Request, body: { text: string; active: boolean }) {
  return apiCall(context, {
    method: "PUT",
    path: "/v1/admin/announcement",
    request,
    body,
    answer: answerOf.announcementSetSchema,
  });
}

export function setDocument(context: AppLoadContext, request: Request, name: string, text: string) {
  return apiCall(context, {
    method: "PUT",
    path: adminPath("documents", name),
    request,
    body: { text },
    answer: answerOf.documentSetSchema,
  });
}
