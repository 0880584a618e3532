import { z } from "zod";
import { KEYS_REVOKE_MAX, keyCountField, keyQuantityField } from "../../../contract/admin-keys";
import { PUBLIC_ID_PATTERN } from "../../../contract/browser/ids";

/* The redeem-key page's form schemas, parsed the same way by the browser (conform) and by the actions. */

/** `optionId:days`: one choice names the option and its warranty duration, so the form needs no script. */
export const PLAN_PATTERN = /^[A-Za-z0-9_-]{22}:\d{1,6}$/;

export const keyGenerateSchema = z.object({
  plan: z
    .string({ required_error: "Choose a plan", invalid_type_error: "Choose a plan" })
    .regex(PLAN_PATTERN, "Choose a plan"),
  quantity: keyQuantityField,
  count: keyCountField,
  /** The last day the keys work (UTC); empty: they never expire. */
  expires: z
    .string()
    .regex(/^\d{4}-\d\d-\d\d$/, "Choose a date")
    .refine((day) => !Number.isNaN(Date.parse(`${day}T00:00:00Z`)), "Choose a date")
    .optional(),
  batchId: z.string().regex(PUBLIC_ID_PATTERN, "Reload the page and try again"),
});
export type KeyGenerateForm = z.infer<typeof keyGenerateSchema>;

export const keyRevokeSchema = z.object({
  keyIds: z
    .array(z.string().regex(PUBLIC_ID_PATTERN), {
      required_error: "Tick the keys to revoke",
      invalid_type_error: "Tick the keys to revoke",
    })
    .min(1, "Tick the keys to revoke")
    .max(KEYS_REVOKE_MAX, `At most ${KEYS_REVOKE_MAX} at a time`),
});
