import { z } from "zod";

/* Redeem keys in the back office (ADR 021, ADR 025): the limits the API enforces and the key forms show. */

export const KEYS_PER_BATCH_MAX = 1000;
export const KEY_QUANTITY_MAX = 999;
export const KEYS_REVOKE_MAX = 200;
export const KEY_STATES = ["unused", "used", "revoked", "expired"] as const;
export type KeyState = (typeof KEY_STATES)[number];

const wholeNumber = (what: string, max: number) =>
  z.coerce
    .number({ invalid_type_error: `${what} must be a number` })
    .int(`${what} must be a whole number`)
    .min(1, `${what} is 1 to ${max}`)
    .max(max, `${what} is 1 to ${max}`);

export const keyCountField = wholeNumber("The number of keys", KEYS_PER_BATCH_MAX);
export const keyQuantityField = wholeNumber("The quantity per key", KEY_QUANTITY_MAX);

/** The last 4 characters of a code, as a key list shows them (`…-7KQ2`), read the way codes are read. */
export const keyHintField = z
  .string()
  .trim()
  .max(8, "The hint is the code's last 4 characters")
  .transform((hint) => hint.toUpperCase().replace(/O/g, "0").replace(/[IL]/g, "1"))
  .default("");
