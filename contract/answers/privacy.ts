import { z } from "zod";
import { withId } from "./common";

/* The answers of deleting an account and of the retention policy (issue 29, ADR 044). */

export const deletedAccountSchema = withId({
  deletedAt: z.string(),
  /** USD: the balance left, written to the ledger as forfeited. */
  forfeited: z.number(),
});
export type DeletedAccount = z.infer<typeof deletedAccountSchema>;

/** What /privacy-policy states about keeping data, from the store's configuration (RETENTION_DAYS). */
export const retentionPolicySchema = z.object({ retentionDays: z.number().int() });
