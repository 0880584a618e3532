import { asc, eq, inArray, sql } from "drizzle-orm";
import type { GeneratedBatch, KeyOption, RevokedKeys } from "../../../contract/answers/admin-keys";
import type { Database, Executor } from "../../db/client";
import { productOptions, products, redeemKeys, warrantyDurations } from "../../db/schema";
import { badRequest, conflict, notFound } from "../../errors";
import { type StaffActor, recordAudit } from "../staff/audit";
import { generateKeys, revokeKeys } from "./redeem-keys";

/*
 * The back office's redeem keys (ADR 021, ADR 025): batches made and keys revoked by staff, each audited.
 * The plain codes leave this module once, in generateKeyBatch's answer; the audit log never holds one.
 */

export const KEY_MESSAGES = {
  batchExists:
    "These keys were already generated: their codes were shown once and are not shown again. Find them in the list.",
  expiryPassed: "The expiry must be in the future",
  noneRevoked: "Nothing was revoked: these keys are used, already revoked or unknown",
} as const;

/** Advisory-lock class of a batch id: two posts of one form make one batch. */
const BATCH_LOCK = 7426;

/** Every option with its warranty durations, in shop order: what a key can be made for. */
export async function keyOptions(db: Executor): Promise<KeyOption[]> {
  const rows = await db
    .select({
      optionId: productOptions.id,
      optionTitle: productOptions.title,
      productId: products.id,
      productTitle: products.title,
      days: warrantyDurations.durationDays,
      durationTitle: warrantyDurations.title,
    })
    .from(warrantyDurations)
    .innerJoin(productOptions, eq(productOptions.id, warrantyDurations.optionId))
    .innerJoin(products, eq(products.id, productOptions.productId))
    .orderBy(
      asc(products.position),
      asc(products.createdAt),
      asc(products.id),
      asc(productOptions.position),
      asc(productOptions.id),
      asc(warrantyDurations.position),
      asc(warrantyDurations.durationDays),
    );
  const options = new Map<string, KeyOption>();
  for (const row of rows) {
    let option = options.get(row.optionId);
    if (!option) {
      option = {
        _id: row.optionId,
        title: row.optionTitle,
        product: { _id: row.productId, title: row.productTitle },
        durations: [],
      };
      options.set(row.optionId, option);
    }
    option.durations.push({ days: row.days, title: row.durationTitle });
  }
  return [...options.values()];
}

/**
 * A batch of keys for an option's warranty duration and quantity. With the form's `batchId`, a second post
 * of the same form is refused (409) instead of making a second batch whose codes nobody saw.
 */
export async function generateKeyBatch(
  db: Database,
  actor: StaffActor,
  input: {
    optionId: string;
    durationDays: number;
    quantity: number;
    count: number;
    expiresAt: Date | null;
    batchId?: string;
    now?: Date;
  },
): Promise<GeneratedBatch> {
  const now = input.now ?? new Date();
  if (input.expiresAt && input.expiresAt <= now) {
    throw badRequest(KEY_MESSAGES.expiryPassed, { expiresAt: [KEY_MESSAGES.expiryPassed] });
  }
  return db.transaction(async (tx) => {
    if (input.batchId) {
      await tx.execute(sql`select pg_advisory_xact_lock(${BATCH_LOCK}, hashtext(${input.batchId}))`);
      const [existing] = await tx
        .select({ id: redeemKeys.id })
        .from(redeemKeys)
        .where(eq(redeemKeys.batchId, input.batchId))
        .limit(1);
      if (existing) throw conflict(KEY_MESSAGES.batchExists);
    }
    const [option] = await tx
      .select({ title: productOptions.title, productTitle: products.title })
      .from(productOptions)
      .innerJoin(products, eq(products.id, productOptions.productId))
      .where(eq(productOptions.id, input.optionId));
    if (!option) throw notFound("Option not found");
    const { batchId, codes } = await generateKeys(tx, input);
    await recordAudit(tx, actor, {
      action: "keys.generate",
      objectType: "keyBatch",
      objectId: batchId,
      objectLabel: `${codes.length} × ${option.productTitle} — ${option.title}`,
      after: {
        keys: codes.length,
        optionId: input.optionId,
        durationDays: input.durationDays,
        quantity: input.quantity,
        expiresAt: input.expiresAt?.toISOString() ?? null,
      },
    });
    return {
      batchId,
      codes,
      product: option.productTitle,
      option: option.title,
      durationDays: input.durationDays,
      quantity: input.quantity,
      expiresAt: input.expiresAt?.toISOString() ?? null,
    };
  });
}

/** Revokes the unused keys among `keyIds`; each one revoked is an audit entry. 409 when none was. */
export async function revokeKeyList(
  db: Database,
  actor: StaffActor,
  keyIds: string[],
  now = new Date(),
): Promise<RevokedKeys> {
  return db.transaction(async (tx) => {
    const revoked = await revokeKeys(tx, keyIds, now);
    if (revoked.length === 0) throw conflict(KEY_MESSAGES.noneRevoked);
    const rows = await tx
      .select({
        id: redeemKeys.id,
        hint: redeemKeys.codeHint,
        option: productOptions.title,
        product: products.title,
      })
      .from(redeemKeys)
      .innerJoin(productOptions, eq(productOptions.id, redeemKeys.optionId))
      .innerJoin(products, eq(products.id, productOptions.productId))
      .where(inArray(redeemKeys.id, revoked));
    for (const row of rows) {
      await recordAudit(tx, actor, {
        action: "keys.revoke",
        objectType: "redeemKey",
        objectId: row.id,
        objectLabel: `…${row.hint} ${row.product} — ${row.option}`,
        before: { state: "unused" },
        after: { state: "revoked" },
      });
    }
    return { revoked: revoked.length };
  });
}
