import { z } from "zod";
import { BALANCE_ENTRY_TYPES } from "../balance";
import { ORDER_STATUSES } from "../browser/order";
import { TICKET_STATUSES } from "../browser/ticket";
import { ROLES } from "../staff";
import { isoDateSchema, pageOf, usdSchema, withId } from "./common";

/* The back office's customers and the checkout blocklist (/v1/admin/customers, /v1/admin/blocklist, ADR 026). */

const customerSummarySchema = withId({
  username: z.string(),
  email: z.string(),
  role: z.enum(ROLES),
  balance: usdSchema,
  orders: z.number().int().describe("every order of the account, whatever its status"),
  joined: isoDateSchema,
  blocked: z.boolean(),
  blockedAt: isoDateSchema.nullable(),
});
export type CustomerSummary = z.infer<typeof customerSummarySchema>;

/** A page of accounts, newest first (GET /v1/admin/customers). */
export const customerPageSchema = pageOf(customerSummarySchema);
export type CustomerPage = z.infer<typeof customerPageSchema>;

/** One account: profile, balance, counts and block (also what blocking and unblocking answer). */
export const customerSchema = customerSummarySchema.extend({
  tickets: z.number().int(),
  blockReason: z.string().describe("staff's reason, never shown to the customer"),
  autoCreated: z.boolean().describe("made by a guest checkout; no password chosen yet"),
});
export type Customer = z.infer<typeof customerSchema>;

const customerOrderSchema = withId({
  status: z.enum(ORDER_STATUSES),
  createdAt: isoDateSchema,
  price: usdSchema,
  discount: usdSchema,
  paymentMethod: z.string().describe("how it was paid: a checkout method, or `key`"),
  items: z.string().describe("the lines as `title × quantity`"),
});

/** A page of the account's orders (GET /v1/admin/customers/{customerId}/orders). */
export const customerOrderPageSchema = pageOf(customerOrderSchema);
export type CustomerOrderPage = z.infer<typeof customerOrderPageSchema>;

const customerTicketSchema = withId({
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  orderId: z.string(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
});
export type CustomerTicket = z.infer<typeof customerTicketSchema>;

/** A page of the account's tickets (GET /v1/admin/customers/{customerId}/tickets). */
export const customerTicketPageSchema = pageOf(customerTicketSchema);
export type CustomerTicketPage = z.infer<typeof customerTicketPageSchema>;

const staffLedgerEntrySchema = withId({
  createdAt: isoDateSchema,
  type: z.enum(BALANCE_ENTRY_TYPES),
  amount: usdSchema.describe("signed: a debit is negative"),
  balanceAfter: usdSchema,
  note: z.string(),
  orderId: z.string().nullable(),
  staffEmail: z.string().nullable().describe("the staff member who made it by hand; the customer sees 'Admin'"),
});
export type StaffLedgerEntry = z.infer<typeof staffLedgerEntrySchema>;

/** A page of the account's balance ledger (GET /v1/admin/customers/{customerId}/ledger). */
export const staffLedgerPageSchema = pageOf(staffLedgerEntrySchema);
export type StaffLedgerPage = z.infer<typeof staffLedgerPageSchema>;

/** The balance after an adjustment (POST /v1/admin/customers/{customerId}/balance). */
export const adjustedBalanceSchema = z.object({ balance: usdSchema });

const blocklistEntrySchema = withId({
  pattern: z.string(),
  note: z.string(),
  createdBy: z.string().nullable(),
  createdAt: isoDateSchema,
});
export type BlocklistEntry = z.infer<typeof blocklistEntrySchema>;

/** A page of the blocklist, newest first (GET /v1/admin/blocklist). */
export const blocklistPageSchema = pageOf(blocklistEntrySchema);
export type BlocklistPage = z.infer<typeof blocklistPageSchema>;

/** A new blocklist entry (POST /v1/admin/blocklist). */
export const blocklistAddedSchema = z.object({ _id: z.string(), pattern: z.string() });
export type BlocklistAdded = z.infer<typeof blocklistAddedSchema>;

/** The removed entry's pattern (DELETE /v1/admin/blocklist/{entryId}). */
export const blocklistRemovedSchema = z.object({ pattern: z.string() });
