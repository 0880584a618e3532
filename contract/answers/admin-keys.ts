import { z } from "zod";
import { KEY_STATES } from "../admin-keys";
import { isoDateSchema, pageOf, withId } from "./common";

/* The back office's redeem keys (/v1/admin/keys, ADR 021 and 025). */

const titledSchema = z.object({ _id: z.string(), title: z.string() });

/** One redeem key as a list shows it: never its code, only the last 4 characters. */
export const redeemKeyRowSchema = withId({
  hint: z.string().describe("the code's last 4 characters"),
  batchId: z.string().nullable(),
  product: titledSchema,
  option: titledSchema,
  durationDays: z.number().int(),
  quantity: z.number().int(),
  state: z.enum(KEY_STATES),
  createdAt: isoDateSchema,
  expiresAt: isoDateSchema.nullable(),
  usedAt: isoDateSchema.nullable(),
  revokedAt: isoDateSchema.nullable(),
  orderId: z.string().nullable().describe("the order the key paid for"),
  redeemedBy: z.string().nullable().describe("the email of the account it was redeemed for"),
});
export type RedeemKeyRow = z.infer<typeof redeemKeyRowSchema>;

/** A page of keys (GET /v1/admin/keys). */
export const keyPageSchema = pageOf(redeemKeyRowSchema);
export type KeyPage = z.infer<typeof keyPageSchema>;

const keyOptionSchema = withId({
  title: z.string(),
  product: titledSchema,
  durations: z.array(z.object({ days: z.number().int(), title: z.string() })),
});
export type KeyOption = z.infer<typeof keyOptionSchema>;

/** Every option with its warranty durations: what a key can be made for (GET /v1/admin/keys/options). */
export const keyOptionsSchema = z.object({ records: z.array(keyOptionSchema) });

/** A batch of new keys with their plain codes, in this answer only (POST /v1/admin/keys/generate). */
export const generatedBatchSchema = z.object({
  batchId: z.string(),
  codes: z.array(z.string()).describe("the plain codes: shown once, stored only hashed"),
  product: z.string(),
  option: z.string(),
  durationDays: z.number().int(),
  quantity: z.number().int(),
  expiresAt: isoDateSchema.nullable(),
});
export type GeneratedBatch = z.infer<typeof generatedBatchSchema>;

/** How many keys were revoked (POST /v1/admin/keys/revoke). */
export const revokedKeysSchema = z.object({ revoked: z.number().int() });
export type RevokedKeys = z.infer<typeof revokedKeysSchema>;
