import type { AppLoadContext } from "@remix-run/node";
import { ticketPageSchema, ticketSchema } from "../../contract/answers/ticket";
import { apiCall, apiPayload } from "./api.server";

/*
 * The /v1 client of support tickets. Reads throw (a 404 becomes the not-found page); the commands
 * answer an ApiResult so a page can show a refusal (closed ticket, limits) as a form error.
 */

export function listTickets(context: AppLoadContext, request: Request, query: { page: number; search: string }) {
  return apiPayload(context, {
    path: "/v1/ticket/read",
    request,
    body: { ...query, sortBy: "updatedAt" },
    answer: ticketPageSchema,
  });
}

export function readTicket(context: AppLoadContext, request: Request, ticketId: string) {
  return apiPayload(context, {
    path: `/v1/ticket/read/${encodeURIComponent(ticketId)}`,
    request,
    answer: ticketSchema,
  });
}

export function openTicket(
  context: AppLoadContext,
  request: Request,
  input: { orderId: string; subject: string; message: string },
) {
  return apiCall(context, { path: "/v1/ticket/create", request, body: input, answer: ticketSchema });
}

export function sendTicketMessage(
  context: AppLoadContext,
  request: Request,
  input: { ticketId: string; message: string },
) {
  return apiCall(context, { path: "/v1/ticket/sendMessage", request, body: input, answer: ticketSchema });
}

export function setTicketOpen(context: AppLoadContext, request: Request, ticketId: string, open: boolean) {
  return apiCall(context, {
    path: open ? "/v1/ticket/open" : "/v1/ticket/close",
    request,
    body: { ticketId },
    answer: ticketSchema,
  });
}
