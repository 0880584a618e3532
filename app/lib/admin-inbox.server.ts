import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../contract/answers/admin-inbox";
import { type ListParams, adminPath, readListPage } from "./admin-list.server";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the staff inbox: tickets, the request queue and feedback moderation (ADR 029). */

export type {
  ReplacementSettings,
  StaffFeedback,
  StaffRequest,
  StaffTicket,
  StaffTicketSummary,
} from "../../contract/answers/admin-inbox";

export function listTickets(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/tickets", query, answer: answerOf.staffTicketPageSchema });
}

export function readTicket(context: AppLoadContext, request: Request, ticketId: string) {
  return apiPayload(context, { path: adminPath("tickets", ticketId), request, answer: answerOf.staffTicketSchema });
}

export function replyToTicket(context: AppLoadContext, request: Request, ticketId: string, message: string) {
  return apiCall(context, {
    path: adminPath("tickets", ticketId, "/reply"),
    request,
    body: { message },
    answer: answerOf.staffTicketSchema,
  });
}

export function setTicketStatus(context: AppLoadContext, request: Request, ticketId: string, status: string) {
  return apiCall(context, {
    path: adminPath("tickets", ticketId, "/status"),
    request,
    body: { status },
    answer: answerOf.staffTicketSchema,
  });
}

export function listRequests(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/requests", query, answer: answerOf.staffRequestPageSchema });
}

/** How staff close a request, and what each posts: the credential (empty: one from stock), an answer, a reason. */
type Resolutions = { complete: { credential: string }; answer: { answer: string }; reject: { reason: string } };

export function resolveRequest<How extends keyof Resolutions>(
  context: AppLoadContext,
  request: Request,
  requestId: string,
  how: How,
  body: Resolutions[How],
) {
  const path = adminPath("requests", requestId, `/${how}`);
  return apiCall(context, { path, request, body, answer: answerOf.requestResolvedSchema });
}

export function listReplacementSettings(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/replacement-settings",
    request,
    answer: answerOf.productReplacementSettingsListSchema,
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
    path: adminPath("replacement-settings", productId),
    request,
    body,
    answer: answerOf.productReplacementSettingsSchema,
  });
}

export function listFeedback(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, {
    path: "/v1/admin/feedback",
    query,
    answer: answerOf.staffFeedbackPageSchema,
  });
}

export function setFeedbackVisible(context: AppLoadContext, request: Request, feedbackId: string, visible: boolean) {
  return apiCall(context, {
    path: adminPath("feedback", feedbackId, "/visibility"),
    request,
    body: { visible },
    answer: answerOf.feedbackVisibilitySetSchema,
  });
}

export function replyToFeedback(context: AppLoadContext, request: Request, feedbackId: string, reply: string) {
  return apiCall(context, {
    method: "PUT",
    path: adminPath("feedback", feedbackId, "/reply"),
    request,
    body: { reply },
    answer: answerOf.feedbackReplySetSchema,
  });
}
