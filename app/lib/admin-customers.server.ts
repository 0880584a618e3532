import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { orderStatusSchema } from "../../contract/order";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The /v1 client of the back office's customers and the checkout blocklist (ADR 026). */

const roleSchema = z.enum(["customer", "owner", "manager", "support"]);
const customerSummarySchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  balance: z.number(),
  orders: z.number(),
  joined: z.string(),
  blocked: z.boolean(),
  blockedAt: z.string().nullable(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;
const customerSchema = customerSummarySchema.extend({
  tickets: z.number(),
  blockReason: z.string(),
  autoCreated: z.boolean(),
});
export type Customer = z.infer<typeof customerSchema>;

const paged = <T extends z.ZodTypeAny>(record: T) => z.object({ records: z.array(record), pager: pagerSchema });
const query = (values: Record<string, string | number>) =>
  new URLSearchParams(Object.entries(values).map(([name, value]) => [name, String(value)]));

export function listCustomers(context: AppLoadContext, request: Request, filters: { search: string; page: number }) {
  return apiPayload(context, {
    path: `/v1/admin/customers?${query(filters)}`,
    request,
    payload: paged(customerSummarySchema),
  });
}

const customerOrderSchema = z.object({
  _id: z.string(),
  status: orderStatusSchema,
  createdAt: z.string(),
  price: z.number(),
  discount: z.number(),
  paymentMethod: z.string(),
  items: z.string(),
});
const customerTicketSchema = z.object({
  _id: z.string(),
  subject: z.string(),
  status: z.enum(["open", "closed"]),
  orderId: z.string(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type CustomerTicket = z.infer<typeof customerTicketSchema>;
const ledgerEntrySchema = z.object({
  _id: z.string(),
  createdAt: z.string(),
  type: z.enum(["in", "out", "refund", "adjustment"]),
  amount: z.number(),
  balanceAfter: z.number(),
  note: z.string(),
  orderId: z.string().nullable(),
  staffEmail: z.string().nullable(),
});
export type StaffLedgerEntry = z.infer<typeof ledgerEntrySchema>;

/** One customer's page: the account, and one page each of its orders, tickets and ledger. */
export async function readCustomerPage(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  pages: { orders: number; tickets: number; ledger: number },
) {
  const base = `/v1/admin/customers/${encodeURIComponent(customerId)}`;
  const [customer, orders, tickets, ledger] = await Promise.all([
    apiPayload(context, { path: base, request, payload: customerSchema }),
    apiPayload(context, { path: `${base}/orders?page=${pages.orders}`, request, payload: paged(customerOrderSchema) }),
    apiPayload(context, {
      path: `${base}/tickets?page=${pages.tickets}`,
      request,
      payload: paged(customerTicketSchema),
    }),
    apiPayload(context, { path: `${base}/ledger?page=${pages.ledger}`, request, payload: paged(ledgerEntrySchema) }),
  ]);
  return { customer, orders, tickets, ledger };
}

export function adjustBalance(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  input: { direction: "credit" | "debit"; amount: number; reason: string },
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: `/v1/admin/customers/${encodeURIComponent(customerId)}/balance`,
    request,
    body: input,
    payload: z.object({ balance: z.number() }),
    idempotencyKey,
  });
}

export function setBlocked(
  context: AppLoadContext,
  request: Request,
  customerId: string,
  input: { blocked: boolean; reason: string },
) {
  return apiCall(context, {
    path: `/v1/admin/customers/${encodeURIComponent(customerId)}/${input.blocked ? "block" : "unblock"}`,
    request,
    body: { reason: input.reason },
    payload: customerSchema,
  });
}

const blocklistEntrySchema = z.object({
  _id: z.string(),
  pattern: z.string(),
  note: z.string(),
  createdBy: z.string().nullable(),
  createdAt: z.string(),
});
export type BlocklistEntry = z.infer<typeof blocklistEntrySchema>;

export function listBlocklist(context: AppLoadContext, request: Request, filters: { search: string; page: number }) {
  return apiPayload(context, {
    path: `/v1/admin/blocklist?${query(filters)}`,
    request,
    payload: paged(blocklistEntrySchema),
  });
}

export function addBlocklistEntry(
  context: AppLoadContext,
  request: Request,
  input: { pattern: string; note: string },
  idempotencyKey?: string,
) {
  return apiCall(context, {
    path: "/v1/admin/blocklist",
    request,
    body: input,
    payload: z.object({ _id: z.string(), pattern: z.string() }),
    idempotencyKey,
  });
}

export function removeBlocklistEntry(context: AppLoadContext, request: Request, entryId: string) {
  return apiCall(context, {
    method: "DELETE",
    path: `/v1/admin/blocklist/${encodeURIComponent(entryId)}`,
    request,
    payload: z.object({ pattern: z.string() }),
  });
}
