import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the staff inbox: tickets, the request queue and feedback moderation (ADR 029). */

const person = z.object({ _id: z.string(), email: z.string() });
const ticketSummarySchema = z.object({
  _id: z.string(),
  subject: z.string(),
  status: z.enum(["open", "closed"]),
  waiting: z.boolean(),
  customer: z.object({ _id: z.string().nullable(), email: z.string(), guest: z.boolean() }),
  orderId: z.string(),
  messages: z.number(),
  lastMessage: z.string(),
  updatedAt: z.string(),
});
export type StaffTicketSummary = z.infer<typeof ticketSummarySchema>;
const ticketSchema = ticketSummarySchema.omit({ messages: true, lastMessage: true }).extend({
  createdAt: z.string(),
  messages: z.array(
    z.object({
      _id: z.string(),
      author: z.string(),
      fromStaff: z.boolean(),
      staffEmail: z.string().nullable(),
      message: z.string(),
      at: z.string(),
    }),
  ),
});
export type StaffTicket = z.infer<typeof ticketSchema>;
const requestSchema = z.object({
  _id: z.string(),
  kind: z.enum(["replacement", "other"]),
  status: z.enum(["pending", "completed", "rejected"]),
  message: z.string(),
  answer: z.string().nullable(),
  credentialIndex: z.number().nullable(),
  customer: person,
  orderId: z.string(),
  product: z.object({
    _id: z.string(),
    title: z.string(),
    optionTitle: z.string(),
    autoReplace: z.boolean(),
    replacementLimit: z.number(),
  }),
  availableStock: z.number(),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  resolvedBy: z.string().nullable(),
});
export type StaffRequest = z.infer<typeof requestSchema>;
const settingsSchema = z.object({
  _id: z.string(),
  title: z.string(),
  autoReplace: z.boolean(),
  replacementLimit: z.number(),
});
export type ReplacementSettings = z.infer<typeof settingsSchema>;
const feedbackSchema = z.object({
  _id: z.string(),
  stars: z.number(),
  message: z.string(),
  visible: z.boolean(),
  reply: z.string().nullable(),
  repliedAt: z.string().nullable(),
  customer: person,
  product: z.object({ _id: z.string(), title: z.string() }),
  updatedAt: z.string(),
});
export type StaffFeedback = z.infer<typeof feedbackSchema>;

const paged = <T extends z.ZodTypeAny>(record: T) => z.object({ records: z.array(record), pager: pagerSchema });
export type ListQuery = { filter: string; search: string; page: number };
const query = (values: ListQuery) =>
  new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)]));
const idPath = (base: string, id: string, tail = "") => `/v1/admin/${base}/${encodeURIComponent(id)}${tail}`;
const done = z.object({ _id: z.string(), status: z.string() });

export function listTickets(context: AppLoadContext, request: Request, filters: ListQuery) {
  return apiPayload(context, {
    path: `/v1/admin/tickets?${query(filters)}`,
    request,
    payload: paged(ticketSummarySchema),
  });
}

export function readTicket(context: AppLoadContext, request: Request, ticketId: string) {
  return apiPayload(context, { path: idPath("tickets", ticketId), request, payload: ticketSchema });
}

export function replyToTicket(context: AppLoadContext, request: Request, ticketId: string, message: string) {
  return apiCall(context, {
    path: idPath("tickets", ticketId, "/reply"),
    request,
    body: { message },
    payload: ticketSchema,
  });
}

export function setTicketStatus(context: AppLoadContext, request: Request, ticketId: string, status: string) {
  return apiCall(context, {
    path: idPath("tickets", ticketId, "/status"),
    request,
    body: { status },
    payload: ticketSchema,
  });
}

export function listRequests(context: AppLoadContext, request: Request, filters: ListQuery) {
  return apiPayload(context, { path: `/v1/admin/requests?${query(filters)}`, request, payload: paged(requestSchema) });
}

export function completeRequest(context: AppLoadContext, request: Request, requestId: string, credential: string) {
  return apiCall(context, {
    path: idPath("requests", requestId, "/complete"),
    request,
    body: { credential },
    payload: done,
  });
}

export function answerRequest(context: AppLoadContext, request: Request, requestId: string, answer: string) {
  return apiCall(context, { path: idPath("requests", requestId, "/answer"), request, body: { answer }, payload: done });
}

export function rejectRequest(context: AppLoadContext, request: Request, requestId: string, reason: string) {
  return apiCall(context, { path: idPath("requests", requestId, "/reject"), request, body: { reason }, payload: done });
}

export function listReplacementSettings(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/replacement-settings", request, payload: z.array(settingsSchema) });
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
    payload: settingsSchema,
  });
}

export function listFeedback(context: AppLoadContext, request: Request, filters: ListQuery) {
  return apiPayload(context, { path: `/v1/admin/feedback?${query(filters)}`, request, payload: paged(feedbackSchema) });
}

export function setFeedbackVisible(context: AppLoadContext, request: Request, feedbackId: string, visible: boolean) {
  return apiCall(context, {
    path: idPath("feedback", feedbackId, "/visibility"),
    request,
    body: { visible },
    payload: z.object({ visible: z.boolean() }),
  });
}

export function replyToFeedback(context: AppLoadContext, request: Request, feedbackId: string, reply: string) {
  return apiCall(context, {
    method: "PUT",
    path: idPath("feedback", feedbackId, "/reply"),
    request,
    body: { reply },
    payload: z.object({ reply: z.string().nullable() }),
  });
}
