import { z } from "zod";
import { EMAIL_MAX_LENGTH, requiredText } from "./account";
import { VALID_AMOUNT, hasAtMostTwoDecimals } from "./balance";

/*
 * The back office's customers (ADR 026): balance adjustments, blocking, and the e-mail blocklist of
 * checkout. Shared by the API's validation and the back office's forms.
 */

export const CUSTOMERS_PAGE_SIZE = 25;
export const CUSTOMER_ORDERS_PAGE_SIZE = 10;
export const CUSTOMER_TICKETS_PAGE_SIZE = 10;
export const CUSTOMER_LEDGER_PAGE_SIZE = 20;
export const BLOCKLIST_PAGE_SIZE = 50;

/** The most one adjustment may move, in USD: a typo with three zeros too many is refused. */
export const ADJUSTMENT_MAX_USD = 10_000;
export const REASON_MAX_LENGTH = 200;

/** What a blocked account is told at sign-in (and a password reset): the reason stays with staff. */
export const ACCOUNT_BLOCKED = "This account is blocked. Contact support.";
/** What checkout, top-ups and redeem keys answer for a blocklisted address or a blocked account's. */
export const EMAIL_REFUSED = "This email address cannot be used to order. Please contact support.";

export const reasonField = requiredText(
  "Please give a reason",
  REASON_MAX_LENGTH,
  `A reason is at most ${REASON_MAX_LENGTH} characters`,
);

export const balanceAdjustmentSchema = z.object({
  direction: z.enum(["credit", "debit"], { errorMap: () => ({ message: "Choose credit or debit" }) }),
  amount: z
    .number({ required_error: VALID_AMOUNT, invalid_type_error: VALID_AMOUNT })
    .finite(VALID_AMOUNT)
    .positive(VALID_AMOUNT)
    .max(ADJUSTMENT_MAX_USD, `${VALID_AMOUNT}: at most $${ADJUSTMENT_MAX_USD.toLocaleString("en-US")} at once`)
    .refine(hasAtMostTwoDecimals, VALID_AMOUNT),
  reason: reasonField,
});

export const blockSchema = z.object({ reason: reasonField });

export const BLOCKLIST_PATTERN_PROBLEM =
  "Enter an address (name@example.com) or a pattern with * (*@example.com, bot*@example.com)";

/**
 * An exact address or a pattern where `*` stands for any text; one `@`, and a domain part that is more
 * than wildcards, so no pattern can refuse every address. Stored and compared in lower case.
 */
// `-` escaped and both cases listed: browsers check this as an HTML pattern (v flag) before lower-casing.
// eslint-disable-next-line no-useless-escape -- the v flag needs it
const BLOCKLIST_PATTERN = /^[A-Za-z0-9._%+'*\-]+@[A-Za-z0-9.*\-]*[A-Za-z0-9][A-Za-z0-9.*\-]*$/;

/**
 * An exact address or a pattern where `*` stands for any text; one `@`, and a domain part that is more
 * than wildcards, so no pattern can refuse every address. Stored and compared in lower case. Each rule
 * only judges what the one before let through, so a bad entry gets one message.
 */
export const blocklistPatternField = z
  .string({ required_error: BLOCKLIST_PATTERN_PROBLEM, invalid_type_error: BLOCKLIST_PATTERN_PROBLEM })
  .trim()
  .toLowerCase()
  .max(EMAIL_MAX_LENGTH, BLOCKLIST_PATTERN_PROBLEM)
  .regex(BLOCKLIST_PATTERN, BLOCKLIST_PATTERN_PROBLEM)
  .refine(
    (pattern) =>
      pattern.length > EMAIL_MAX_LENGTH ||
      !BLOCKLIST_PATTERN.test(pattern) ||
      pattern.includes("*") ||
      z.string().email().safeParse(pattern).success,
    { message: BLOCKLIST_PATTERN_PROBLEM },
  );

export const blocklistEntrySchema = z.object({
  pattern: blocklistPatternField,
  note: z
    .string()
    .trim()
    .max(REASON_MAX_LENGTH, `A note is at most ${REASON_MAX_LENGTH} characters`)
    .optional()
    .default(""),
});
