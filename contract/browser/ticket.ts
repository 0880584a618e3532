/* Ticket limits and texts that pages need in the browser: no zod here (ADR 032); the schemas are in ../ticket.ts. */

export const TICKET_SUBJECT_MAX_LENGTH = 120;
export const TICKET_MESSAGE_MAX_LENGTH = 2000;
/** The list shows a subject cut to this many characters (spec section 9). */
export const TICKET_SUBJECT_SHOWN_LENGTH = 40;
/** Open tickets one customer may hold at once: close one to open another. */
export const OPEN_TICKETS_LIMIT = 5;
export const TICKETS_PAGE_SIZE = 10;
/** A ticket is open (it takes messages) or closed (until its customer or staff reopen it). */
export const TICKET_STATUSES = ["open", "closed"] as const;
/** Who a staff member's message is from, whoever wrote it (spec section 6). */
export const STAFF_AUTHOR = "Admin";

/** "A subject that goes on…" cut at 40 characters with an ellipsis. */
export function shownSubject(subject: string): string {
  const characters = Array.from(subject);
  return characters.length <= TICKET_SUBJECT_SHOWN_LENGTH
    ? subject
    : `${characters.slice(0, TICKET_SUBJECT_SHOWN_LENGTH).join("")}…`;
}
