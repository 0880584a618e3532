import type { AppLoadContext } from "@remix-run/node";
import {
  feedbackReplySetSchema,
  feedbackVisibilitySetSchema,
  productReplacementSettingsListSchema,
  productReplacementSettingsSchema,
  requestResolvedSchema,
  staffFeedbackPageSchema,
  staffRequestPageSchema,
  staffTicketPageSchema,
  staffTicketSchema,
} from "../../contract/answers/admin-inbox";
import { type ListParams, readListPage } from "./admin-list.server";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the staff inbox: tickets, the request queue and feedback moderation (ADR 029). */

export type {
  ReplacementSettings,
  StaffFeedback,
  StaffRequest,
  StaffTicket,
  StaffTicketSummary,
} from "../../contract/answers/admin-inbox";

const idPath = (base: string, id: string, tail = "") => `/v1/admin/${base}/${encodeURIComponent(id)}${tail}`;

export function listTickets(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/tickets", query, answer: staffTicketPageSchema });
}

export function readTicket(context: AppLoadContext, request: Request, ticketId: string) {
  return apiPayload(context, { path: idPath("tickets", ticketId), request, answer: staffTicketSchema });
}

export function replyToTicket(context: AppLoadContext, request: Request, ticketId: string, message: string) {
  return apiCall(context, {
    path: idPath("tickets", ticketId, "/reply"),
    request,
    body: { message },
    answer: staffTicketSchema,
  });
}

export function setTicketStatus(context: AppLoadContext, request: Request, ticketId: string, status: string) {
  return apiCall(context, {
    path: idPath("tickets", ticketId, "/status"),
    request,
    body: { status },
    answer: staffTicketSchema,
  });
}

export function listRequests(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/requests", query, answer: staffRequestPageSchema });
}

export function completeRequest(context: AppLoadContext, request: Request, requestId: string, credential: string) {
  return apiCall(context, {
    path: idPath("requests", requestId, "/complete"),
    request,
    body: { credential },
    answer: requestResolvedSchema,
  });
}

export function answerRequest(context: AppLoadContext, request: Request, requestId: string, answer: string) {
  return apiCall(context, {
    path: idPath("requests", requestId, "/answer"),
    request,
    body: { answer },
    answer: requestResolvedSchema,
  });
}

export function rejectRequest(context: AppLoadContext, request: Request, requestId: string, reason: string) {
  return apiCall(context, {
    path: idPath("requests", requestId, "/reject"),
    request,
    body: { reason },
    answer: requestResolvedSchema,
  });
}

export function listReplacementSettings(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/replacement-settings",
    request,
    answer: productReplacementSettingsListSchema,
  });
}

export function saveReplacementSettings(
  context: AppLoadContext,
  request: Request,
  productId: string,
  body: { autoReplace: boolean; replacementLimit: number },
) {
  return apiCall(context, {
    method: "PUT",
    path: idPath("replacement-settings", productId),
    request,
    body,
    answer: productReplacementSettingsSchema,
  });
}

export function listFeedback(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/feedback", query, answer: staffFeedbackPageSchema });
}

export function setFeedbackVisible(context: AppLoadContext, request: Request, feedbackId: string, visible: boolean) {
  return apiCall(context, {
    path: idPath("feedback", feedbackId, "/visibility"),
    request,
    body: { visible },
    answer: feedbackVisibilitySetSchema,
  });
}

export function replyToFeedback(context: AppLoadContext, request: Request, feedbackId: string, reply: string) {
  return apiCall(context, {
    method: "PUT",
    path: idPath("feedback", feedbackId, "/reply"),
    request,
    body: { reply },
    answer: feedbackReplySetSchema,
  });
}
