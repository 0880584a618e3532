import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { personalDataSchema, staffCustomerDataSchema } from "../../contract/answers/personal-data";
import { deletedAccountSchema, retentionPolicySchema } from "../../contract/answers/privacy";
import { apiCall, apiPayload } from "./api.server";
import { fileDownload } from "./download.server";

/*
 * The /v1 client of a customer's own data (issue 29, ADR 044): the export a customer downloads from /settings (and
 * staff from a customer's back-office page, without credentials' secrets: ADR 054), and deleting an account. Answers ApiResults, so a wrong password or a
 * refusal becomes a form error; the export is handed on as a file by the page routes.
 */

export function exportMyData(context: AppLoadContext, request: Request) {
  return apiCall(context, { path: "/v1/user/export", request, answer: personalDataSchema });
}

export function deleteMyAccount(context: AppLoadContext, request: Request, input: { password: string }) {
  return apiCall(context, { path: "/v1/user/delete", request, body: input, answer: deletedAccountSchema });
}

const customerPath = (customerId: string) => `/v1/admin/customers/${encodeURIComponent(customerId)}`;

export function exportCustomerData(context: AppLoadContext, request: Request, customerId: string) {
  return apiCall(context, { path: `${customerPath(customerId)}/export`, request, answer: staffCustomerDataSchema });
}

export function deleteCustomerAccount(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  input: { reason: string },
) {
  return apiCall(context, {
    path: `${customerPath(customerId)}/delete`,
    request,
    body: input,
    answer: deletedAccountSchema,
  });
}

/** The export as the file the browser saves: named by the day, never by the person. */
export function personalDataFile(
  data: z.output<typeof personalDataSchema> | z.output<typeof staffCustomerDataSchema>,
): Response {
  return fileDownload(JSON.stringify(data, null, 2), {
    name: `store-data-${data.exportedAt.slice(0, 10)}.json`,
    type: "application/json",
    cacheControl: "private, no-store",
  });
}

/** How many days the store keeps what it no longer needs (RETENTION_DAYS), for /privacy-policy. */
export function readRetentionPolicy(context: AppLoadContext) {
  return apiPayload(context, { path: "/v1/privacy/retention", answer: retentionPolicySchema });
}
