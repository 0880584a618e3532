import { z } from "zod";
import { TICKET_STATUSES } from "../browser/ticket";
import { isoDateSchema, pageOf, publicIdSchema } from "./common";

/* A support ticket's conversation as its customer reads it (/v1/ticket/*), and its guest (/v1/contact, contact.ts). */

export const ticketMessageSchema = z.object({
  _id: publicIdSchema,
  username: z.string().describe("the customer's username, or `Admin` for staff"),
  message: z.string(),
  timestamp: isoDateSchema,
});

export const ticketSchema = z.object({
  _id: publicIdSchema,
  orderId: z.string().describe("the order it is about, or empty for a general question"),
  subject: z.string(),
  status: z.enum(TICKET_STATUSES).describe("a closed ticket takes no messages until reopened"),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema.describe("ISO 8601; the last message or status change"),
  messages: z.array(ticketMessageSchema).describe("oldest first"),
});
export type Ticket = z.infer<typeof ticketSchema>;

/** One page of the customer's tickets (POST /v1/ticket/read). */
export const ticketPageSchema = pageOf(ticketSchema);
