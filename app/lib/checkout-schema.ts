import { z } from "zod";
import { emailField } from "../../contract/account";
import { couponField, orderMessageField } from "../../contract/order";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";

/*
 * The cart panel's checkout forms. Conform checks them in the browser (and puts their HTML constraints
 * on the inputs for JS-off visitors); the /cart action parses the post with the same schema. The API
 * repeats every rule and has the last word (sold out, coupon used up, a taken email).
 */

const redirectToField = z.string().max(2_000).optional();

export const couponSchema = z.object({
  intent: z.literal("coupon"),
  coupon: couponField,
  redirectTo: redirectToField,
});

const baseCheckoutSchema = z.object({
  intent: z.literal("checkout"),
  paymentMethod: z
    .string({ required_error: "Please choose a payment method" })
    .regex(/^[a-z_]{1,32}$/, "Please choose a payment method"),
  message: orderMessageField,
  redirectTo: redirectToField,
  /** One per rendered form (the loader makes it): the API answers a repeat of it with the first result. */
  idempotencyKey: z
    .string()
    .regex(/^[\x21-\x7e]{1,255}$/)
    .optional(),
  /** The digest of the cart the page showed (ADR 052); the API refuses the order if the cart is another. */
  shownCart: z.string().max(64).optional(),
  /**
   * The coupon the page showed as applied (absent when none applied, or it no longer applies): the order uses the
   * coupon cookie only when it is this one, so a coupon the page showed as not applying is not sent (ADR 052).
   */
  appliedCoupon: z.string().max(64).optional(),
});

/** Guests also give an email (their account is made from it) and pass the human check. */
export const guestCheckoutSchema = baseCheckoutSchema.extend({
  email: emailField,
  [HUMAN_CHECK_FIELD]: z.string().max(4_096).optional().default(""),
});

/** A customer's account pays: no email and no human check (the fields are ignored if sent). */
export const customerCheckoutSchema = baseCheckoutSchema.extend({
  email: z.string().optional(),
  [HUMAN_CHECK_FIELD]: z.string().optional(),
});
