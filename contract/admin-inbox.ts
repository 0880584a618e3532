import { z } from "zod";
import { optionalText } from "./account";
import { STAFF_ANSWER_MAX_LENGTH } from "./request";
import { ticketMessageField } from "./ticket";

/*
 * The staff inbox (ADR 029): tickets, the request queue and feedback moderation, area `support`
 * (owners and support staff). Shared by the API's validation and the back office's forms.
 */

export const INBOX_PAGE_SIZE = 25;
export const FEEDBACK_REPLY_MAX_LENGTH = 1000;
/** The most replacements a product's settings may allow for one credential. */
export const REPLACEMENT_LIMIT_MAX = 100;

export const TICKET_FILTERS = ["waiting", "open", "closed", "all"] as const;
export type TicketFilter = (typeof TICKET_FILTERS)[number];
export const REQUEST_FILTERS = ["pending", "completed", "rejected", "all"] as const;
export type RequestFilter = (typeof REQUEST_FILTERS)[number];
export const FEEDBACK_FILTERS = ["all", "shown", "hidden"] as const;
export type FeedbackFilter = (typeof FEEDBACK_FILTERS)[number];

export const staffReplySchema = z.object({ message: ticketMessageField });
export const ticketStatusSchema = z.object({
  status: z.enum(["open", "closed"], { errorMap: () => ({ message: "Choose open or closed" }) }),
});

/** A pasted credential, or nothing to take one from the option's stock. */
export const completeReplacementSchema = z.object({
  credential: z
    .string({ invalid_type_error: "Paste username:password, or leave it empty to use stock" })
    .trim()
    .max(1000, "A credential is at most 1,000 characters")
    .optional()
    .default(""),
});

const words = (label: string) =>
  z
    .string({ required_error: `Please write ${label}`, invalid_type_error: `Please write ${label}` })
    .trim()
    .min(1, `Please write ${label}`)
    .max(STAFF_ANSWER_MAX_LENGTH, `At most ${STAFF_ANSWER_MAX_LENGTH} characters`);
export const rejectRequestSchema = z.object({ reason: words("a reason") });
export const answerRequestSchema = z.object({ answer: words("an answer") });

export const replacementSettingsSchema = z.object({
  autoReplace: z.boolean({ invalid_type_error: "Choose on or off" }),
  replacementLimit: z
    .number({ required_error: "Enter a number", invalid_type_error: "Enter a number" })
    .int("Enter a whole number")
    .min(0, "At least 0")
    .max(REPLACEMENT_LIMIT_MAX, `At most ${REPLACEMENT_LIMIT_MAX}`),
});

export const feedbackVisibilitySchema = z.object({
  visible: z.boolean({ required_error: "Choose shown or hidden", invalid_type_error: "Choose shown or hidden" }),
});
/** An empty reply removes the store's reply. */
export const feedbackReplySchema = z.object({
  reply: optionalText(
    "The reply is text",
    FEEDBACK_REPLY_MAX_LENGTH,
    `A reply is at most ${FEEDBACK_REPLY_MAX_LENGTH} characters`,
  ),
});
