/* Feedback limits and texts that pages need in the browser: no zod here (ADR 032); the schemas are in ../feedback.ts. */

export const FEEDBACK_MESSAGE_MAX_LENGTH = 1000;
/** Cards per page of /feedback: fills whole rows of 4, 3, 2 or 1 columns. */
export const FEEDBACK_PAGE_SIZE = 12;
/** Spec section 8: what a visitor who is not signed in is told. */
export const REGISTER_TO_LEAVE_FEEDBACK = "Please Register to leave feedback";
export const STAR_VALUES = [1, 2, 3, 4, 5] as const;
