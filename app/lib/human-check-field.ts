/** The field the human-check answer travels in, whatever the provider (docs/api-accounts.md). */
export const HUMAN_CHECK_FIELD = "g-recaptcha-response";
