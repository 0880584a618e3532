import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-inbox";
import { type ListParams, adminPath, readListPage } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* The request queue's /v1 client: requests, how staff close one, each product's replacement settings (ADR 029). */

export type { ReplacementSettings, StaffRequest } from "../../../contract/answers/admin-inbox";

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
