import { randomUUID } from "node:crypto";
import { ONCE_KEY_FIELD } from "./once-key";

/*
 * A create form's one-time key (issue 26): the loader renders a new one with the form, the action sends it
 * as the API's Idempotency-Key, so the same form posted twice (a double click without JavaScript) makes
 * one object and the second post is answered with the first one's result.
 */

export const newOnceKey = (): string => randomUUID();

/** The posted form's key; a missing or malformed one is no key (the create then simply runs). */
export function onceKeyOf(formData: FormData): string | undefined {
  const value = formData.get(ONCE_KEY_FIELD);
  return typeof value === "string" && /^[\x21-\x7e]{1,255}$/.test(value) ? value : undefined;
}
