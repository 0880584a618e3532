import { z } from "zod";

/* Support-ticket limits the API enforces and the ticket forms show (spec sections 5 and 9). */

export * from "./browser/ticket";
import { TICKET_MESSAGE_MAX_LENGTH, TICKET_SUBJECT_MAX_LENGTH } from "./browser/ticket";

/** Optional: an empty order id is a general question, not about one order. */
export const ticketOrderField = z
  .string({ invalid_type_error: "Choose an order" })
  .trim()
  .max(64, "Choose one of your orders")
  .optional()
  .default("");

export const ticketSubjectField = z
  .string({ required_error: "Subject is required", invalid_type_error: "Subject is required" })
  .trim()
  .min(1, "Subject is required")
  .max(TICKET_SUBJECT_MAX_LENGTH, `The subject is at most ${TICKET_SUBJECT_MAX_LENGTH} characters`);

/** Stored as given (only trimmed): it is text, escaped wherever it is shown. */
export const ticketMessageField = z
  .string({ required_error: "Message is required", invalid_type_error: "Message is required" })
  .trim()
  .min(1, "Message is required")
  .max(TICKET_MESSAGE_MAX_LENGTH, `The message is at most ${TICKET_MESSAGE_MAX_LENGTH} characters`);

/** A ticket's conversation as its customer reads it: an account's ticket (/v1/ticket) or a guest's (/v1/contact). */
export const ticketConversationSchema = z.object({
  _id: z.string(),
  orderId: z.string(),
  subject: z.string(),
  status: z.enum(["open", "closed"]),
  createdAt: z.string(),
  updatedAt: z.string(),
  messages: z.array(z.object({ _id: z.string(), username: z.string(), message: z.string(), timestamp: z.string() })),
});
