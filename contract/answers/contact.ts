import { z } from "zod";
import { publicIdSchema } from "./common";
import { ticketSchema } from "./ticket";

/* Guest support's answers (/v1/contact, ADR 039). */

/** POST /v1/contact: the ticket is open; the link to it is mailed, never answered. */
export const guestTicketOpenedSchema = z.object({ ticketId: publicIdSchema });

/** The conversation as its guest sees it: staff write as `Admin`, the guest as `You`. */
export const guestTicketSchema = ticketSchema.extend({
  messages: ticketSchema.shape.messages.describe(
    "oldest first; `username` is `You` for the guest and `Admin` for staff",
  ),
});
export type GuestTicket = z.infer<typeof guestTicketSchema>;
