import { z } from "@hono/zod-openapi";
import {
  currentPasswordField,
  emailField,
  loginPasswordField,
  loginUsernameField,
  PASSWORD_TOO_LONG,
  PASSWORDS_DO_NOT_MATCH,
  required,
  resetCodeField,
  SECRET_INPUT_MAX_LENGTH,
  usernameField,
} from "../../contract/account";

/*
 * The request bodies of /v1/user (user.ts). Field messages are whole sentences: the pages show them as
 * they are, next to the field that `errors` names. Password rules (length, common passwords) live in the services.
 */

const username = usernameField;
const email = emailField;
/** The policy's 128-character limit answers with its own message; this bound only keeps huge bodies from argon2. */
const newPassword = z
  .string(required("Please enter a password"))
  .min(1, "Please enter a password")
  .max(SECRET_INPUT_MAX_LENGTH, PASSWORD_TOO_LONG);
const confirmation = z.string(required("Please confirm your password"));
const currentPassword = currentPasswordField;
const humanCheckAnswer = z.string().max(8192).optional();

function passwordsMatch(value: { password: string; password2?: string }, ctx: z.RefinementCtx) {
  if (value.password2 !== undefined && value.password2 !== value.password) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: PASSWORDS_DO_NOT_MATCH });
  }
}

export const registerInput = z
  .object({
    username,
    email,
    password: newPassword,
    password2: confirmation.optional(),
    "g-recaptcha-response": humanCheckAnswer,
  })
  .superRefine((value, ctx) => {
    // The guest variant (checkout) sends a human-check answer and no confirmation.
    if (value["g-recaptcha-response"] === undefined && value.password2 === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: "Please confirm your password" });
    }
    passwordsMatch(value, ctx);
  });
export const loginInput = z.object({
  username: loginUsernameField,
  password: loginPasswordField,
  deviceToken: z.string().max(128).optional(),
  "g-recaptcha-response": humanCheckAnswer,
});
export const forgetInput = z.object({ email });
export const resetInput = z
  .object({
    email,
    otp: z
      .union([z.string(), z.number()], required("Please enter the code from the email"))
      // A client that sends the code as a number loses its leading zeros.
      .transform((value) => (typeof value === "number" ? String(value).padStart(6, "0") : value.trim()))
      .pipe(resetCodeField),
    password: newPassword,
    password2: confirmation,
  })
  .superRefine(passwordsMatch);
export const usernameInput = z.object({ username });
export const emailInput = z.object({ email, currentPassword });
export const passwordInput = z
  .object({ password: newPassword, password2: confirmation.optional(), currentPassword })
  .superRefine(passwordsMatch);

export const twoFactorInput = z.object({
  challenge: z.string({ required_error: "Sign in again" }).min(1, "Sign in again").max(200),
  code: z
    .string({ required_error: "Enter the code", invalid_type_error: "Enter the code" })
    .trim()
    .min(6, "Enter the 6-digit code, or a recovery code")
    .max(40, "Enter the 6-digit code, or a recovery code"),
  deviceToken: z.string().max(200).optional(),
});
