import type { AppLoadContext } from "@remix-run/node";
import * as answerOf from "../../../contract/answers/admin-content";
import { adminPath } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* The payment gateways page's /v1 client: list them, switch one on or off (ADR 031). */

export function listGateways(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/gateways", request, answer: answerOf.adminGatewaysSchema });
}

export function switchGateway(context: AppLoadContext, request: Request, name: string, enabled: boolean) {
  return apiCall(context, {
    method: "PUT",
    path: adminPath("gateways", name),
    request,
    body: { enabled },
    answer: answerOf.adminGatewaySchema,
  });
}
