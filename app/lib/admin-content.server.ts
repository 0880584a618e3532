import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { GATEWAY_NAMES, LEGAL_DOCUMENT_NAMES } from "../../contract/admin-content";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's content and payment gateways (ADR 031). */

const faqSchema = z.object({ _id: z.string(), question: z.string(), answer: z.string() });
const socialLinkSchema = z.object({ _id: z.string(), name: z.string(), link: z.string() });
const contentSchema = z.object({
  faqs: z.array(faqSchema),
  socialLinks: z.array(socialLinkSchema),
  announcement: z.object({ text: z.string(), active: z.boolean() }),
  documents: z.array(
    z.object({
      name: z.enum(LEGAL_DOCUMENT_NAMES),
      title: z.string(),
      path: z.string(),
      text: z.string(),
      updatedAt: z.string().nullable(),
    }),
  ),
});
export type AdminContent = z.infer<typeof contentSchema>;
const gatewaySchema = z.object({
  name: z.enum(GATEWAY_NAMES),
  label: z.string(),
  enabled: z.boolean(),
  configured: z.boolean(),
  offered: z.boolean(),
});
export type AdminGateway = z.infer<typeof gatewaySchema>;

export function readContent(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/content", request, payload: contentSchema });
}

/** The FAQ and the social links share their calls: `list` names which. */
export type OrderedList = "faqs" | "social-links";
const rowPath = (list: OrderedList, rowId: string) => `/v1/admin/${list}/${encodeURIComponent(rowId)}`;

export function addRow(
  context: AppLoadContext,
  request: Request,
  list: OrderedList,
  body: Record<string, string>,
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: `/v1/admin/${list}`,
    request,
    body,
    payload: z.object({ _id: z.string() }),
    idempotencyKey,
  });
}

export function editRow(
  context: AppLoadContext,
  request: Request,
  list: OrderedList,
  rowId: string,
  body: Record<string, string>,
) {
  return apiCall(context, {
    method: "PUT",
    path: rowPath(list, rowId),
    request,
    body,
    payload: z.object({ _id: z.string() }),
  });
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
    payload: z.object({ moved: z.boolean() }),
  });
}

export function deleteRow(context: AppLoadContext, request: Request, list: OrderedList, rowId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: rowPath(list, rowId),
    request,
    payload: z.object({ label: z.string() }),
  });
}

export function setAnnouncement(context: AppLoadContext, request: Request, body: { text: string; active: boolean }) {
  return apiCall(context, {
    method: "PUT",
    path: "/v1/admin/announcement",
    request,
    body,
    payload: z.object({ shown: z.boolean() }),
  });
}

export function setDocument(context: AppLoadContext, request: Request, name: string, text: string) {
  return apiCall(context, {
    method: "PUT",
    path: `/v1/admin/documents/${encodeURIComponent(name)}`,
    request,
    body: { text },
    payload: z.object({ title: z.string(), builtIn: z.boolean() }),
  });
}

export function listGateways(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/gateways", request, payload: z.array(gatewaySchema) });
}

export function switchGateway(context: AppLoadContext, request: Request, name: string, enabled: boolean) {
  return apiCall(context, {
    method: "PUT",
    path: `/v1/admin/gateways/${encodeURIComponent(name)}`,
    request,
    body: { enabled },
    payload: gatewaySchema,
  });
}
