import { z } from "zod";

/*
 * Account rules the API validates and the account forms show. Messages are whole sentences:
 * the pages show them as they are, next to the field they name.
 */

export const USERNAME_MIN_LENGTH = 3;
export const USERNAME_MAX_LENGTH = 64;
export const EMAIL_MAX_LENGTH = 254;
export const PASSWORD_MIN_LENGTH = 8;
export const PASSWORD_MAX_LENGTH = 128;
/** Bounds what reaches argon2 and the login lookup; the real limits answer with their own messages. */
export const SECRET_INPUT_MAX_LENGTH = 4096;

export const PASSWORDS_DO_NOT_MATCH = "Passwords do not match";
export const INVALID_LOGIN = "Invalid username or password";
export const PASSWORD_TOO_SHORT = `Password must be at least ${PASSWORD_MIN_LENGTH} characters`;
export const PASSWORD_TOO_LONG = `Password must be at most ${PASSWORD_MAX_LENGTH} characters`;
const USERNAME_LENGTH = `Username must be ${USERNAME_MIN_LENGTH} to ${USERNAME_MAX_LENGTH} characters`;

/**
 * Usernames are letters, digits and `. _ @ + -`. The `-` is escaped: browsers compile the HTML pattern
 * with the v flag, which refuses a bare one in a class (no-useless-escape judges it only as JavaScript).
 */
// eslint-disable-next-line no-useless-escape -- the v flag needs it
export const USERNAME_CHARACTERS = /^[A-Za-z0-9._@+\-]+$/;
export const RESET_CODE_PATTERN = /^\d{6}$/;

/** The same message whether the field is missing or not a string. */
export const required = (message: string) => ({ required_error: message, invalid_type_error: message });

/** A trimmed text that must not be empty: `missing` when it is, `tooLong` past `max` characters. */
export function requiredText(missing: string, max: number, tooLong: string) {
  return z.string(required(missing)).trim().min(1, missing).max(max, tooLong);
}

/** A trimmed text that may be left empty (absent is ""): `notText` when it is not a string, `tooLong` past `max`. */
export function optionalText(notText: string, max: number, tooLong: string) {
  return z.string({ invalid_type_error: notText }).trim().max(max, tooLong).default("");
}

export const usernameField = z
  .string(required("Please enter a username"))
  .trim()
  .min(USERNAME_MIN_LENGTH, USERNAME_LENGTH)
  .max(USERNAME_MAX_LENGTH, USERNAME_LENGTH)
  .regex(USERNAME_CHARACTERS, "Username may use letters, digits and . _ @ + - only");

export const emailField = z
  .string(required("Please enter your email address"))
  .trim()
  .min(1, "Please enter your email address")
  .max(EMAIL_MAX_LENGTH, "Invalid email")
  .email("Invalid email");

/** Sign-in takes a username or an email; anything too long cannot match either. */
export const loginUsernameField = z
  .string(required("Please enter your username or email"))
  .trim()
  .min(1, "Please enter your username or email")
  .max(EMAIL_MAX_LENGTH, INVALID_LOGIN);

export const loginPasswordField = z
  .string(required("Please enter your password"))
  .min(1, "Please enter your password")
  .max(SECRET_INPUT_MAX_LENGTH, INVALID_LOGIN);

/** Only accounts made at guest checkout, which never saw their generated password, may leave it empty. */
export const currentPasswordField = z.string().max(SECRET_INPUT_MAX_LENGTH).optional();

export const resetCodeField = z
  .string(required("Please enter the code from the email"))
  .trim()
  .min(1, "Please enter the code from the email")
  .regex(RESET_CODE_PATTERN, "The code is the 6 digits from the email");
