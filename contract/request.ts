import { z } from "zod";
import { requiredText } from "./account";

export * from "./browser/request";

/* Warranty replacements and other requests on an order line: limits the API enforces and the forms show. */

export const REQUEST_MESSAGE_MAX_LENGTH = 1000;
/** "Doesn't work" tells staff nothing: a replacement request says a little more (spec section 5). */
export const REPLACEMENT_MESSAGE_MIN_LENGTH = 10;
export const STAFF_ANSWER_MAX_LENGTH = 2000;
/** The most credentials of one order line a request's index can name (a line holds at most 999, plus replacements). */
export const CREDENTIAL_INDEX_MAX = 100_000;
/** Other requests one order line may have waiting for an answer at once. */
export const OPEN_OTHER_REQUESTS_PER_LINE = 3;

export const replacementMessageField = z
  .string({ required_error: "Please describe the problem", invalid_type_error: "Please describe the problem" })
  .trim()
  .min(1, "Please describe the problem")
  .min(REPLACEMENT_MESSAGE_MIN_LENGTH, "Please tell us a little more: what happens when you sign in?")
  .max(REQUEST_MESSAGE_MAX_LENGTH, `The message is at most ${REQUEST_MESSAGE_MAX_LENGTH} characters`);

export const otherRequestMessageField = requiredText(
  "Message is required",
  REQUEST_MESSAGE_MAX_LENGTH,
  `The message is at most ${REQUEST_MESSAGE_MAX_LENGTH} characters`,
);

/** The credential's number on the order (`credIndexes` of GET /v1/order/read/{id}). */
export const credentialIndexField = z
  .number({ required_error: "Choose a credential", invalid_type_error: "Choose a credential" })
  .int("Choose a credential")
  .min(0, "Choose a credential")
  .max(CREDENTIAL_INDEX_MAX, "Choose a credential");
