/** The form field of a create form's one-time key (app/lib/once-key.server.ts). */
export const ONCE_KEY_FIELD = "idempotencyKey";
