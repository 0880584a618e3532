import { z } from "zod";

/*
 * One schema per account form. Conform uses each in the browser (and turns it into HTML
 * constraints for JS-off visitors) and the action parses the post with the same one; the API
 * repeats every rule and has the last word (taken names, common passwords, wrong codes).
 */

const PASSWORD_MIN_LENGTH = 8;
const PASSWORD_MAX_LENGTH = 128;
export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";

const required = (message: string) => ({ required_error: message, invalid_type_error: message });

export const usernameField = z
  .string(required("Please enter a username"))
  .trim()
  .min(3, "Username must be 3 to 64 characters")
  .max(64, "Username must be 3 to 64 characters")
  // `-` escaped: browsers compile the HTML pattern with the v flag, which refuses a bare one in a class;
  // no-useless-escape judges the regex only as JavaScript, where the escape would indeed be useless.
  // eslint-disable-next-line no-useless-escape
  .regex(/^[A-Za-z0-9._@+\-]+$/, "Username may use letters, digits and . _ @ + - only");

export const emailField = z
  .string(required("Please enter your email address"))
  .trim()
  .max(254, "Invalid email")
  .email("Invalid email");

const newPasswordField = z
  .string(required("Please enter a password"))
  .min(PASSWORD_MIN_LENGTH, `Password must be at least ${PASSWORD_MIN_LENGTH} characters`)
  .max(PASSWORD_MAX_LENGTH, `Password must be at most ${PASSWORD_MAX_LENGTH} characters`);

const confirmationField = z
  .string(required("Please confirm your password"))
  .max(PASSWORD_MAX_LENGTH, PASSWORDS_DO_NOT_MATCH);

/** Only accounts made at guest checkout, which never saw their generated password, may leave it empty. */
const currentPasswordField = z.string().max(4096).optional();

const redirectToField = z.string().max(2_000).optional();

function passwordsMatch(value: { password: string; password2: string }, ctx: z.RefinementCtx) {
  if (value.password !== value.password2) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: PASSWORDS_DO_NOT_MATCH });
  }
}

export const loginSchema = z.object({
  username: z
    .string(required("Please enter your username or email"))
    .trim()
    .min(1, "Please enter your username or email")
    .max(254, "Invalid username or password"),
  password: z.string(required("Please enter your password")).max(4096, "Invalid username or password"),
  redirectTo: redirectToField,
  /** Only after many failed sign-ins on the account does the page carry the human check. */
  "g-recaptcha-response": z.string().max(8192).optional(),
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
    otp: z
      .string(required("Please enter the code from the email"))
      .trim()
      .regex(/^\d{6}$/, "The code is the 6 digits from the email"),
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

/** Fields whose values never travel back to the page in a failed submission's reply. */
export const SECRET_FIELDS = ["password", "password2", "currentPassword"];
