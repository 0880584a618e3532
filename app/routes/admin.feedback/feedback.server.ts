import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-inbox";
import { type ListParams, adminPath, readListPage } from "~/lib/admin-list.server";
import { apiCall } from "~/lib/api.server";

/* The feedback moderation page's /v1 client: list, show or hide, reply (ADR 029). */

export type { StaffFeedback } from "../../../contract/answers/admin-inbox";

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
