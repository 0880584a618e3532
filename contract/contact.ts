import { z } from "zod";
import { emailField } from "./account";
import { PUBLIC_ID_PATTERN } from "./ids";
import { ticketMessageField } from "./ticket";

/*
 * Guest support (ADR 039): the contact form opens a ticket with an email and no account; the guest reads and
 * answers it through the link mailed to that email. Shared by /v1/contact and the /contact pages.
 */

/** Unknown, malformed or another email's order: one answer, so it tells nothing about someone else's order. */
export const CONTACT_ORDER_NOT_FOUND =
  "We found no order with this id for this email. Check the id in your order mail, or leave it empty.";
export const CONTACT_NOT_FOUND = "This conversation does not exist. Open the link in your latest mail from support.";
export const CONTACT_CLOSED = "This conversation is closed. Write to us again from the contact page.";
export const CONTACT_OPENED = "Thank you. We mailed you a link to this conversation; our answer will come there too.";

/** Optional: empty is a general question. A malformed id is refused with the same words as a foreign one. */
export const contactOrderField = z
  .string({ invalid_type_error: CONTACT_ORDER_NOT_FOUND })
  .trim()
  .max(64, CONTACT_ORDER_NOT_FOUND)
  .refine((value) => value === "" || PUBLIC_ID_PATTERN.test(value), CONTACT_ORDER_NOT_FOUND)
  .optional()
  .default("");

/** POST /v1/contact: what the contact form sends, the human-check answer aside. */
export const contactOpenSchema = z.object({
  email: emailField,
  orderId: contactOrderField,
  message: ticketMessageField,
});

export const contactReplySchema = z.object({ message: ticketMessageField });

export const GUEST_AUTHOR = "You";
