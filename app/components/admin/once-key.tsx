/** The form field of a create form's one-time key (app/lib/once-key.server.ts). */
export const ONCE_KEY_FIELD = "idempotencyKey";

/** A create form's one-time key, rendered by the loader; nothing when the form has none. */
export function OnceKeyField({ value }: { value: string | undefined }) {
  return value ? <input type="hidden" name={ONCE_KEY_FIELD} value={value} /> : null;
}
