import { z } from "zod";
import { TOP_UP_MIN_USD, VALID_AMOUNT, hasAtMostTwoDecimals } from "../../../contract/balance";
import { TOP_UP_MAX_USD } from "../../../contract/money";

/** The Add Balance form: the browser enforces min, max and the method with JS off; the API repeats every rule. */
export const topUpSchema = z.object({
  balance: z
    .number({ required_error: VALID_AMOUNT, invalid_type_error: VALID_AMOUNT })
    .min(TOP_UP_MIN_USD, VALID_AMOUNT)
    .max(TOP_UP_MAX_USD, `${VALID_AMOUNT}: at most $${TOP_UP_MAX_USD.toLocaleString("en-US")} at once`)
    .refine(hasAtMostTwoDecimals, VALID_AMOUNT),
  paymentMethod: z.string({ required_error: "Please choose a payment method" }).max(32),
  /** One per rendered form: a repeated post answers the first payment page instead of a second top-up. */
  idempotencyKey: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional(),
});
