import { z } from "zod";
import { requiredText } from "./account";

/* Feedback limits the API enforces and the feedback form and page show (spec sections 2, 3 and 8). */

export * from "./browser/feedback";
import { FEEDBACK_MESSAGE_MAX_LENGTH } from "./browser/feedback";

const STARS_MESSAGE = "Please choose 1 to 5 stars";

/** Builds a schema and nothing else: a bundle may drop an unused call (ADR 032). */
const starsRange = /* @__NO_SIDE_EFFECTS__ */ (stars: z.ZodNumber) =>
  stars.int(STARS_MESSAGE).min(1, STARS_MESSAGE).max(5, STARS_MESSAGE);

/** A whole number of stars from 1 to 5 (the API takes a JSON number). */
export const starsField = starsRange(z.number({ required_error: STARS_MESSAGE, invalid_type_error: STARS_MESSAGE }));
/** The same rule for a form post, which sends the chosen radio's value as text. */
export const starsFormField = starsRange(
  z.coerce.number({ required_error: STARS_MESSAGE, invalid_type_error: STARS_MESSAGE }),
);

/** Stored as given (only trimmed): it is text, escaped wherever it is shown. */
export const feedbackMessageField = requiredText(
  "Please write a message",
  FEEDBACK_MESSAGE_MAX_LENGTH,
  `The message is at most ${FEEDBACK_MESSAGE_MAX_LENGTH} characters`,
);
