import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { apiCall } from "./api.server";

/*
 * The /v1 client of warranty replacements and other requests on an order line (docs/api-requests.md).
 * Every function answers an ApiResult: a refusal (403 another account's order, 409 warranty ended,
 * 429) is shown on the order page as the API words it.
 */

const requestSchema = z.object({
  _id: z.string(),
  kind: z.enum(["replacement", "other"]),
  index: z.number().int().nullable(),
  status: z.enum(["pending", "completed", "rejected"]),
  createdAt: z.string(),
  resolvedAt: z.string().nullable(),
  message: z.string(),
  creds: z.array(z.string()),
  reason: z.string().nullable(),
  answer: z.string().nullable(),
});
export type OrderRequest = z.infer<typeof requestSchema>;

export type OrderLineKey = { orderId: string; productId: string; productOptionId: string };

export function listRequests(context: AppLoadContext, request: Request, line: OrderLineKey) {
  return apiCall(context, { path: "/v1/request/getRequests", request, body: line, payload: z.array(requestSchema) });
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
    payload: requestSchema,
  });
}

export function sendOtherRequest(context: AppLoadContext, request: Request, input: OrderLineKey & { message: string }) {
  return apiCall(context, { path: "/v1/request/createRequest", request, body: input, payload: requestSchema });
}
