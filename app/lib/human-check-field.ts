/** The field the human-check answer travels in, whatever the provider (docs/api-accounts.md). */
export const HUMAN_CHECK_FIELD = "g-recaptcha-response";

/**
 * Sent by a form that showed the visible question: a refusal of its answer is then an error the person can act
 * on, while a form that showed no question answers a refused check by asking it (ADR 038).
 */
export const HUMAN_CHECK_ASKED_FIELD = "human-check-asked";
