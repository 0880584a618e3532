import type { AppLoadContext } from "@remix-run/node";
import { type OrderRequest, orderRequestListSchema, orderRequestSchema } from "../../contract/answers/request";
import { apiCall } from "./api.server";

/*
 * The /v1 client of warranty replacements and other requests on an order line (docs/api-requests.md).
 * Every function answers an ApiResult: a refusal (403 another account's order, 409 warranty ended,
 * 429) is shown on the order page as the API words it.
 */

export type { OrderRequest };

export type OrderLineKey = { orderId: string; productId: string; productOptionId: string };

export function listRequests(context: AppLoadContext, request: Request, line: OrderLineKey) {
  return apiCall(context, { path: "/v1/request/getRequests", request, body: line, answer: orderRequestListSchema });
}

export function requestReplacement(
  context: AppLoadContext,
  request: Request,
  input: OrderLineKey & { index: number; message: string; humanCheck: string },
) {
  const { humanCheck, ...fields } = input;
  return apiCall(context, {
    path: "/v1/request/createReplacement",
    request,
    body: { ...fields, "g-recaptcha-response": humanCheck },
    answer: orderRequestSchema,
  });
}

export function sendOtherRequest(context: AppLoadContext, request: Request, input: OrderLineKey & { message: string }) {
  return apiCall(context, { path: "/v1/request/createRequest", request, body: input, answer: orderRequestSchema });
}
