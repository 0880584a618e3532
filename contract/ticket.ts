import { z } from "zod";

/* Support-ticket limits the API enforces and the ticket forms show (spec sections 5 and 9). */

export const TICKET_SUBJECT_MAX_LENGTH = 120;
export const TICKET_MESSAGE_MAX_LENGTH = 2000;
/** The list shows a subject cut to this many characters (spec section 9). */
export const TICKET_SUBJECT_SHOWN_LENGTH = 40;
/** Open tickets one customer may hold at once: close one to open another. */
export const OPEN_TICKETS_LIMIT = 5;
export const TICKETS_PAGE_SIZE = 10;
/** Who a staff member's message is from, whoever wrote it (spec section 6). */
export const STAFF_AUTHOR = "Admin";

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

/** "A subject that goes on…" cut at 40 characters with an ellipsis. */
export function shownSubject(subject: string): string {
  const characters = Array.from(subject);
  return characters.length <= TICKET_SUBJECT_SHOWN_LENGTH
    ? subject
    : `${characters.slice(0, TICKET_SUBJECT_SHOWN_LENGTH).join("")}…`;
}
