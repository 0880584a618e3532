import { z } from "zod";
import { requiredText } from "./account";

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

export const ticketSubjectField = requiredText(
  "Subject is required",
  TICKET_SUBJECT_MAX_LENGTH,
  `The subject is at most ${TICKET_SUBJECT_MAX_LENGTH} characters`,
);

/** Stored as given (only trimmed): it is text, escaped wherever it is shown. */
export const ticketMessageField = requiredText(
  "Message is required",
  TICKET_MESSAGE_MAX_LENGTH,
  `The message is at most ${TICKET_MESSAGE_MAX_LENGTH} characters`,
);
