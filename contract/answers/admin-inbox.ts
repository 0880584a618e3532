import { z } from "zod";
import { REQUEST_KINDS, REQUEST_STATUSES } from "../browser/request";
import { TICKET_STATUSES } from "../browser/ticket";
import { isoDateSchema, pageOf, withId } from "./common";

/* The staff inbox (ADR 029): tickets, the request queue, replacement settings and feedback moderation. */

const personSchema = z.object({ _id: z.string(), email: z.string() });

const ticketSummarySchema = withId({
  subject: z.string(),
  status: z.enum(TICKET_STATUSES),
  waiting: z.boolean().describe("open, and the customer wrote last"),
  customer: z.object({
    _id: z.string().nullable().describe("the customer's account; null for a guest's ticket"),
    email: z.string().describe("the account's email, or the one a guest gave"),
    guest: z.boolean().describe("opened from the contact form without an account (ADR 039)"),
  }),
  orderId: z.string().describe("empty: a general question"),
  messages: z.number().int(),
  lastMessage: z.string(),
  updatedAt: isoDateSchema,
});
export type StaffTicketSummary = z.infer<typeof ticketSummarySchema>;

/** A page of tickets (GET /v1/admin/tickets). */
export const staffTicketPageSchema = pageOf(ticketSummarySchema);
export type StaffTicketPage = z.infer<typeof staffTicketPageSchema>;

/** A ticket with its whole conversation (also what replying and closing or reopening answer). */
export const staffTicketSchema = ticketSummarySchema.omit({ messages: true, lastMessage: true }).extend({
  createdAt: isoDateSchema,
  messages: z.array(
    withId({
      author: z.string().describe("the customer's username, 'Guest', or 'Admin'"),
      fromStaff: z.boolean(),
      staffEmail: z.string().nullable().describe("who on the staff wrote it (never shown to customers)"),
      message: z.string(),
      at: isoDateSchema,
    }),
  ),
});
export type StaffTicket = z.infer<typeof staffTicketSchema>;

const staffRequestSchema = withId({
  kind: z.enum(REQUEST_KINDS),
  status: z.enum(REQUEST_STATUSES),
  message: z.string(),
  answer: z.string().nullable(),
  credentialIndex: z.number().int().nullable(),
  customer: personSchema,
  orderId: z.string(),
  product: withId({
    title: z.string(),
    optionTitle: z.string(),
    autoReplace: z.boolean(),
    replacementLimit: z.number().int(),
  }),
  availableStock: z.number().int().describe("credentials of the option on sale now"),
  createdAt: isoDateSchema,
  resolvedAt: isoDateSchema.nullable(),
  resolvedBy: z.string().nullable(),
});
export type StaffRequest = z.infer<typeof staffRequestSchema>;

/** A page of requests (GET /v1/admin/requests). */
export const staffRequestPageSchema = pageOf(staffRequestSchema);
export type StaffRequestPage = z.infer<typeof staffRequestPageSchema>;

/** A request completed, answered or rejected (POST /v1/admin/requests/{requestId}/…). */
export const requestResolvedSchema = z.object({ _id: z.string(), status: z.enum(REQUEST_STATUSES) });

/** A product's replacement settings (also what saving them answers). */
export const productReplacementSettingsSchema = withId({
  title: z.string(),
  autoReplace: z.boolean(),
  replacementLimit: z.number().int(),
});
export type ReplacementSettings = z.infer<typeof productReplacementSettingsSchema>;

/** Every product's replacement settings (GET /v1/admin/replacement-settings). */
export const productReplacementSettingsListSchema = z.array(productReplacementSettingsSchema);

const staffFeedbackSchema = withId({
  stars: z.number().int(),
  message: z.string(),
  visible: z.boolean(),
  reply: z.string().nullable(),
  repliedAt: isoDateSchema.nullable(),
  customer: personSchema,
  product: z.object({ _id: z.string(), title: z.string() }),
  updatedAt: isoDateSchema,
});
export type StaffFeedback = z.infer<typeof staffFeedbackSchema>;

/** A page of reviews (GET /v1/admin/feedback). */
export const staffFeedbackPageSchema = pageOf(staffFeedbackSchema);
export type StaffFeedbackPage = z.infer<typeof staffFeedbackPageSchema>;

/** A review's visibility (POST /v1/admin/feedback/{feedbackId}/visibility). */
export const feedbackVisibilitySetSchema = z.object({ visible: z.boolean() });
export type FeedbackVisibilitySet = z.infer<typeof feedbackVisibilitySetSchema>;

/** The store's reply under a review; null: removed (PUT /v1/admin/feedback/{feedbackId}/reply). */
export const feedbackReplySetSchema = z.object({ reply: z.string().nullable() });
export type FeedbackReplySet = z.infer<typeof feedbackReplySetSchema>;
