/* Request statuses that pages need in the browser: no zod here (ADR 032); the schemas are in ../request.ts. */

/** A replacement or other request waits for staff (pending), was answered (completed) or refused (rejected). */
export const REQUEST_STATUSES = ["pending", "completed", "rejected"] as const;

/** A request asks for a replacement of a credential under warranty, or is another question about an order line. */
export const REQUEST_KINDS = ["replacement", "other"] as const;

/** What the request forms suggest (the order view loads them in the browser, without zod). */
export const REPLACEMENT_MESSAGE_PLACEHOLDER =
  'What happens when you sign in? For example: "Wrong password since this morning" or "The profile asks for a code". Please don\'t just write "Doesn\'t work".';
export const OTHER_REQUEST_PLACEHOLDER = "Your question about this product, for example about the plan or the account.";
