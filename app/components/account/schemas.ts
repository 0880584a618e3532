import { z } from "zod";
import {
  currentPasswordField,
  emailField,
  loginPasswordField,
  loginUsernameField,
  PASSWORD_MAX_LENGTH,
  PASSWORD_MIN_LENGTH,
  PASSWORD_TOO_LONG,
  PASSWORD_TOO_SHORT,
  PASSWORDS_DO_NOT_MATCH,
  required,
  resetCodeField,
  usernameField,
} from "../../../contract/account";
import { deleteAccountSchema } from "../../../contract/privacy";

/*
 * One schema per account form. The action parses the post with it; the browser never loads it (ADR 032): its
 * HTML constraints are generated into schemas.constraints.ts (`npm run forms:constraints`), which the form
 * carries with JavaScript on and off. The API repeats every rule and has the last word (taken names, common
 * passwords, wrong codes).
 */

const newPasswordField = z
  .string(required("Please enter a password"))
  .min(PASSWORD_MIN_LENGTH, PASSWORD_TOO_SHORT)
  .max(PASSWORD_MAX_LENGTH, PASSWORD_TOO_LONG);

const confirmationField = z
  .string(required("Please confirm your password"))
  .max(PASSWORD_MAX_LENGTH, PASSWORDS_DO_NOT_MATCH);

const redirectToField = z.string().max(2_000).optional();

function passwordsMatch(value: { password: string; password2: string }, ctx: z.RefinementCtx) {
  if (value.password !== value.password2) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: PASSWORDS_DO_NOT_MATCH });
  }
}

export const loginSchema = z.object({
  username: loginUsernameField,
  password: loginPasswordField,
  redirectTo: redirectToField,
  /** Only after many failed sign-ins on the account does the page carry the human check. */
  "g-recaptcha-response": z.string().max(8192).optional(),
});

/** The second step of a staff sign-in with two-factor on: the challenge from the password step and a code. */
export const twoFactorSchema = z.object({
  challenge: z.string({ required_error: "Sign in again" }).max(200),
  code: z
    .string({ required_error: "Enter the code from your app", invalid_type_error: "Enter the code from your app" })
    .trim()
    .min(6, "Enter the 6-digit code from your app, or a recovery code")
    .max(40, "Enter the 6-digit code from your app, or a recovery code"),
  redirectTo: redirectToField,
});

export const signupSchema = z
  .object({
    username: usernameField,
    email: emailField,
    password: newPasswordField,
    password2: confirmationField,
    redirectTo: redirectToField,
  })
  .superRefine(passwordsMatch);

export const forgotSchema = z.object({ email: emailField });

export const resetSchema = z
  .object({
    email: emailField,
    otp: resetCodeField,
    password: newPasswordField,
    password2: confirmationField,
  })
  .superRefine(passwordsMatch);

export const changeUsernameSchema = z.object({ intent: z.literal("username"), username: usernameField });

export const changeEmailSchema = z.object({
  intent: z.literal("email"),
  email: emailField,
  currentPassword: currentPasswordField,
});

export const changePasswordSchema = z
  .object({
    intent: z.literal("password"),
    password: newPasswordField,
    password2: confirmationField,
    currentPassword: currentPasswordField,
  })
  .superRefine(passwordsMatch);

/** Deleting the account (issue 29): the password, as the API checks it. */
export const deleteAccountFormSchema = deleteAccountSchema.extend({ intent: z.literal("delete") });

/** Fields whose values never travel back to the page in a failed submission's reply. */
export const SECRET_FIELDS = ["password", "password2", "currentPassword"];
