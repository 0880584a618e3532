import { z } from "zod";
import { hasAtMostTwoDecimals } from "./balance";
import { PUBLIC_ID_PATTERN } from "./ids";
import { COUPON_MAX_LENGTH } from "./order";

/*
 * Coupons as the back office makes them (ADR 026): the fields checkout honours (api/services/coupons/discounts.ts)
 * with the rules a form can show. Shared by the API's validation and the coupon form.
 */

export const COUPONS_PAGE_SIZE = 50;
/** The largest fixed discount, in USD; a percent coupon takes 1 to 100. */
export const FIXED_COUPON_MAX_USD = 10_000;
export const COUPON_PRODUCTS_LIMIT = 200;
export const COUPON_USES_LIMIT = 1_000_000;

export const COUPON_FORM_MESSAGES = {
  code: `A code is 3 to ${COUPON_MAX_LENGTH} letters, digits, - or _`,
  codeTaken: "Another coupon already has this code",
  percent: "A percent coupon takes 1 to 100 (whole percent)",
  fixed: `A fixed discount is $0.01 to $${FIXED_COUPON_MAX_USD.toLocaleString("en-US")}, in cents at most`,
  minimum: "Enter a minimum of $0 or more, in cents at most",
  count: "Enter a whole number from 1, or leave it empty for no limit",
  expiry: "Enter a date and time",
  product: "Choose products from the list",
} as const;

export const couponCodeField = z
  .string({ required_error: COUPON_FORM_MESSAGES.code, invalid_type_error: COUPON_FORM_MESSAGES.code })
  .trim()
  .min(3, COUPON_FORM_MESSAGES.code)
  .max(COUPON_MAX_LENGTH, COUPON_FORM_MESSAGES.code)
  // eslint-disable-next-line no-useless-escape -- the v flag of an HTML pattern needs it
  .regex(/^[A-Za-z0-9_\-]+$/, COUPON_FORM_MESSAGES.code);

/** A coupon takes a percent off, or a fixed amount of USD. */
export const COUPON_KINDS = ["percent", "fixed"] as const;
/** Where a coupon comes from: staff made it, or the slots game gave it to one customer as a prize. */
export const COUPON_SOURCES = ["admin", "slots"] as const;

export const couponKindField = z.enum(COUPON_KINDS, {
  errorMap: () => ({ message: "Choose percent or a fixed amount" }),
});

/** Percent (1-100) for a percent coupon, USD for a fixed one; which applies is checked with the kind. */
export const couponAmountField = z
  .number({ required_error: "Enter the discount", invalid_type_error: "Enter the discount" })
  .positive("Enter the discount")
  .max(FIXED_COUPON_MAX_USD, COUPON_FORM_MESSAGES.fixed);

export const minimumAmountField = z
  .number({ invalid_type_error: COUPON_FORM_MESSAGES.minimum })
  .min(0, COUPON_FORM_MESSAGES.minimum)
  .max(1_000_000, COUPON_FORM_MESSAGES.minimum)
  .refine(hasAtMostTwoDecimals, COUPON_FORM_MESSAGES.minimum);

/** A limit (total uses, uses per customer): a whole number from 1, or none. */
export const usesLimitField = z
  .number({ invalid_type_error: COUPON_FORM_MESSAGES.count })
  .int(COUPON_FORM_MESSAGES.count)
  .min(1, COUPON_FORM_MESSAGES.count)
  .max(COUPON_USES_LIMIT, COUPON_FORM_MESSAGES.count);

export const couponProductsField = z
  .array(z.string().regex(PUBLIC_ID_PATTERN, COUPON_FORM_MESSAGES.product), {
    invalid_type_error: COUPON_FORM_MESSAGES.product,
  })
  .max(COUPON_PRODUCTS_LIMIT, COUPON_FORM_MESSAGES.product);

/** The amount fits the kind: a whole percent up to 100, or whole cents. */
export function couponAmountProblem(kind: "percent" | "fixed", amount: number): string | undefined {
  if (kind === "percent") return Number.isInteger(amount) && amount <= 100 ? undefined : COUPON_FORM_MESSAGES.percent;
  return hasAtMostTwoDecimals(amount) ? undefined : COUPON_FORM_MESSAGES.fixed;
}

/** A coupon as the API takes it (create and edit): every field, so an edit states the whole coupon. */
export const couponInputSchema = z
  .object({
    code: couponCodeField,
    kind: couponKindField,
    amount: couponAmountField,
    minAmount: minimumAmountField.default(0),
    maxUses: usesLimitField.nullable().default(null),
    perCustomerLimit: usesLimitField.nullable().default(null),
    expiresAt: z.string().datetime({ offset: true, message: COUPON_FORM_MESSAGES.expiry }).nullable().default(null),
    productIds: couponProductsField.default([]),
    active: z.boolean().default(true),
  })
  .superRefine((coupon, context) => {
    const problem = couponAmountProblem(coupon.kind, coupon.amount);
    if (problem) context.addIssue({ code: z.ZodIssueCode.custom, path: ["amount"], message: problem });
  });
export type CouponInput = z.output<typeof couponInputSchema>;
