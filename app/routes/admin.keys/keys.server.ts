import { randomBytes } from "node:crypto";
import type { AppLoadContext } from "@remix-run/node";
import {
  type GeneratedBatch,
  generatedBatchSchema,
  keyOptionsSchema,
  keyPageSchema,
  revokedKeysSchema,
} from "../../../contract/answers/admin-keys";
import { type ListParams, readListPage } from "~/lib/admin-list.server";
import { apiCall, apiPayload } from "~/lib/api.server";

/* The /v1 client of the back office's redeem keys (/v1/admin/keys/*, ADR 021 and 025). */

export type { GeneratedBatch, KeyOption, RedeemKeyRow } from "../../../contract/answers/admin-keys";

export function listKeyOptions(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/keys/options", request, answer: keyOptionsSchema });
}

export function listKeys(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/keys", query, answer: keyPageSchema });
}

export function generateKeys(
  context: AppLoadContext,
  request: Request,
  input: {
    optionId: string;
    durationDays: number;
    quantity: number;
    count: number;
    expiresAt: string | null;
    batchId: string;
  },
) {
  return apiCall(context, { path: "/v1/admin/keys/generate", request, body: input, answer: generatedBatchSchema });
}

export function revokeKeys(context: AppLoadContext, request: Request, keyIds: string[]) {
  return apiCall(context, { path: "/v1/admin/keys/revoke", request, body: { keyIds }, answer: revokedKeysSchema });
}

/** A fresh id for the generate form: the API makes one batch per id, so a post repeated by a reload makes none. */
export function newBatchId(): string {
  return randomBytes(16).toString("base64url");
}

/** The generate form's fields as the API takes them: the plan split, the last valid day as its end (UTC). */
export function generateInput(form: {
  plan: string;
  quantity: number;
  count: number;
  expires?: string;
  batchId: string;
}) {
  const [optionId, days] = form.plan.split(":");
  const expiresAt = form.expires ? new Date(Date.parse(`${form.expires}T00:00:00Z`) + 24 * 60 * 60 * 1000) : null;
  return {
    optionId,
    durationDays: Number(days),
    quantity: form.quantity,
    count: form.count,
    expiresAt: expiresAt?.toISOString() ?? null,
    batchId: form.batchId,
  };
}

/** A CSV field: quoted, and a leading = + - @ neutralised so a spreadsheet never runs it as a formula. */
function csvField(value: string | number | null): string {
  const text = value === null ? "" : String(value);
  const safe = /^[=+\-@\t\r]/.test(text) ? `'${text}` : text;
  return `"${safe.replace(/"/g, '""')}"`;
}

/** The batch as CSV: a header, then one key a line. */
export function keysCsv(batch: GeneratedBatch): string {
  const header = ["code", "product", "option", "warranty_days", "quantity", "expires_at"];
  const rows = batch.codes.map((code) =>
    [code, batch.product, batch.option, batch.durationDays, batch.quantity, batch.expiresAt].map(csvField).join(","),
  );
  return [header.join(","), ...rows].join("\r\n") + "\r\n";
}
