import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-inbox";
import { adminPath } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* A ticket's page's /v1 client: read it, reply, set its status (ADR 029). */

export type { StaffTicket } from "../../../contract/answers/admin-inbox";

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
