import { requiredText } from "./account";

/* Redeem-key rules the API enforces and the /redeem-key form shows (spec sections 2, 3 and 5; ADR 021). */

/** Unknown, used, revoked, expired or malformed: one answer, so it tells nothing about which. */
export const REDEEM_KEY_INVALID = "This key is not valid or has already been used. Please check it and try again.";
export const KEY_MAX_LENGTH = 64;

/** Crockford's base32 symbols, 20 of them (100 bits); the code is written in groups of 5. */
const NORMALISED_KEY = /^[0-9A-HJKMNP-TV-Z]{20}$/;

/**
 * The code as stored (hashed): capitals, without spaces or dashes, with the letters people confuse with
 * digits read as those digits (O as 0, I and L as 1), so `abcde-…` and `ABCDE…` are the same key.
 * Null when it cannot be a key at all.
 */
export function normaliseKeyCode(input: string): string | null {
  const code = input.toUpperCase().replace(/[\s-]/g, "").replace(/O/g, "0").replace(/[IL]/g, "1");
  return NORMALISED_KEY.test(code) ? code : null;
}

export const keyField = requiredText("Please enter your key", KEY_MAX_LENGTH, REDEEM_KEY_INVALID);
