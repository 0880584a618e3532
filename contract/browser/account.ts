/* Account texts that pages need in the browser: no zod here (ADR 032); the schemas are in ../account.ts. */

/**
 * Sign-up (and guest checkout) with an email that has an account. A guest buyer has one they never chose a password
 * for, so the message points to setting one by mailed code as well (issue 38). The same words for every account,
 * so they tell no one whether an email bought as a guest.
 */
export const EMAIL_TAKEN =
  "An account with this email already exists. Please sign in, or, if you bought as a guest and never chose a " +
  "password, set one with a code we mail you.";
