import { createHash, randomInt } from "node:crypto";
import { type SQL, and, eq, gt, inArray, isNotNull, isNull, lte, or, sql } from "drizzle-orm";
import { KEYS_PER_BATCH_MAX, KEY_QUANTITY_MAX, type KeyState } from "../../../contract/admin-keys";
import { REDEEM_KEY_INVALID, normaliseKeyCode } from "../../../contract/redeem-key";
import type { KeyPage } from "../../../contract/answers/admin-keys";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { newId } from "../../db/ids";
import { productOptions, products, redeemKeys, users, warrantyDurations } from "../../db/schema";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import type { Logger } from "../../logger";
import { EMAIL_TAKEN, type NewAccount, insertAccount, prepareGuestAccount } from "../accounts/accounts";
import { assertEmailMayOrder } from "../customers/blocks";
import { assertHuman } from "../guards/human-check";
import { createKeyOrder } from "../order-create";
import { type RateRule, hitRateLimit } from "../guards/rate-limit";

import { newestFirst, readPage } from "../shared/paging";
/*
 * Redeem keys (ADR 021): a key is bound to a product option, a warranty duration and a quantity, and pays
 * for one order once. Only a SHA-256 hash of the normalised code is stored; the plain codes exist once, in
 * the answer of generateKeys.
 */

/** Crockford's base32: no I, L, O or U, so a code read aloud or copied by hand survives. */
const KEY_ALPHABET = "0123456789ABCDEFGHJKMNPQRSTVWXYZ";
const KEY_LENGTH = 20; // x 5 bits = 100 random bits
const KEY_GROUP = 5;
export const KEYS_PAGE_SIZE = 50;

/** Every attempt from one address counts, so nobody can try codes quickly. */
export const REDEEM_RULE: RateRule = { name: "redeem:ip", limit: 10, windowMs: 15 * 60_000 };

export const REDEEM_MESSAGES = {
  redeemed: "Your key is redeemed. Here is your order.",
  notRedeemed: "Your key has not been used, so you can redeem it once the plan is back in stock.",
} as const;

/** A fresh code, written for humans: `7KQ2M-9XHT4-...` (4 groups of 5). */
export function generateKeyCode(): string {
  let code = "";
  for (let index = 0; index < KEY_LENGTH; index++) code += KEY_ALPHABET[randomInt(KEY_ALPHABET.length)];
  return formatKeyCode(code);
}

export function formatKeyCode(normalised: string): string {
  return normalised.match(new RegExp(`.{1,${KEY_GROUP}}`, "g"))!.join("-");
}

export function keyHash(normalised: string): string {
  return createHash("sha256").update(`redeem-key:${normalised}`).digest("base64url");
}

export type RedeemDeps = { db: Database; config: Config; logger: Logger };

/** The one answer for a key that is malformed, unknown, used, revoked or expired: no hint which. */
const invalidKey = () => badRequest(REDEEM_KEY_INVALID, { key: [REDEEM_KEY_INVALID] });

const redeemable = (hash: string, now: Date) =>
  and(
    eq(redeemKeys.keyHash, hash),
    isNull(redeemKeys.usedAt),
    isNull(redeemKeys.revokedAt),
    or(isNull(redeemKeys.expiresAt), gt(redeemKeys.expiresAt, now)),
  );

/**
 * Redeems a key for the account with `email` (made as guest checkout makes one when there is none): a
 * completed order at price 0, paid for by the key. The key is marked used by a conditional UPDATE inside the
 * order's transaction, so of many redemptions at once one gets the row and the others find it used; when
 * the plan is sold out the transaction rolls back and the key stays unused.
 */
export async function redeemKey(
  deps: RedeemDeps,
  input: { email: string; key: string; humanCheck: string | undefined; clientIp: string; now?: Date },
): Promise<{ orderId: string }> {
  const now = input.now ?? new Date();
  await hitRateLimit(deps.db, REDEEM_RULE, input.clientIp, { now, scale: deps.config.rateLimitScale });
  await assertHuman(deps, input.humanCheck, { ip: input.clientIp, now });
  await assertEmailMayOrder(deps.db, input.email);
  const normalised = normaliseKeyCode(input.key);
  if (!normalised) throw invalidKey();
  const hash = keyHash(normalised);
  // A cheap look first, so a wrong key costs no account preparation (argon2) and no registration count.
  const [candidate] = await deps.db.select({ id: redeemKeys.id }).from(redeemKeys).where(redeemable(hash, now));
  if (!candidate) throw invalidKey();

  const redeem = async () => {
    const existing = await accountByEmail(deps.db, input.email);
    const account = existing ? null : await prepareGuestAccount({ ...deps, ip: input.clientIp, now }, input.email);
    return deps.db.transaction(async (tx) => {
      const [key] = await tx.update(redeemKeys).set({ usedAt: now }).where(redeemable(hash, now)).returning({
        id: redeemKeys.id,
        optionId: redeemKeys.optionId,
        durationDays: redeemKeys.durationDays,
        quantity: redeemKeys.quantity,
      });
      if (!key) throw invalidKey();
      const customer = existing ?? (await newCustomer(tx, account!, input.email, now));
      const order = await createKeyOrder(
        tx,
        {
          publicUrl: deps.config.publicUrl,
          rateLimitScale: deps.config.rateLimitScale,
          notifications: deps.config.notifications,
        },
        { customer, ...key, clientIp: input.clientIp, now },
      ).catch((error: unknown) => {
        if (error instanceof AppError && error.status === 409) {
          throw conflict(`${error.message}. ${REDEEM_MESSAGES.notRedeemed}`);
        }
        throw error;
      });
      await tx
        .update(redeemKeys)
        .set({ orderId: order.orderId, redeemedByUserId: customer.id })
        .where(eq(redeemKeys.id, key.id));
      return { orderId: order.orderId };
    });
  };
  try {
    return await redeem();
  } catch (error) {
    // Another request made the account for this email meanwhile: redeem for that account.
    if (error instanceof AppError && error.status === 409 && error.message === EMAIL_TAKEN) return redeem();
    throw error;
  }
}

async function accountByEmail(db: Executor, email: string) {
  const [user] = await db
    .select({ id: users.id, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return user ?? null;
}

async function newCustomer(tx: Executor, account: NewAccount, email: string, now: Date) {
  return { id: await insertAccount(tx, account, now), email };
}

// ---------------------------------------------------------------- for the back office

export type { KeyState };

/**
 * Makes `count` keys for an option's warranty duration and quantity. The plain codes are in this answer
 * only: the table keeps their hashes (and each code's last 4 characters, to tell keys apart in a list).
 */
export async function generateKeys(
  db: Executor,
  input: {
    optionId: string;
    durationDays: number;
    quantity: number;
    count: number;
    expiresAt?: Date | null;
    /** The caller's own id for the batch (a form's, so posting it twice makes one batch); new when absent. */
    batchId?: string;
  },
): Promise<{ batchId: string; codes: string[] }> {
  if (!Number.isInteger(input.count) || input.count < 1 || input.count > KEYS_PER_BATCH_MAX) {
    throw badRequest(`Generate 1 to ${KEYS_PER_BATCH_MAX} keys at a time`, { count: ["Out of range"] });
  }
  if (!Number.isInteger(input.quantity) || input.quantity < 1 || input.quantity > KEY_QUANTITY_MAX) {
    throw badRequest(`Quantity must be 1 to ${KEY_QUANTITY_MAX}`, { quantity: ["Out of range"] });
  }
  const [duration] = await db
    .select({ id: warrantyDurations.id })
    .from(warrantyDurations)
    .where(and(eq(warrantyDurations.optionId, input.optionId), eq(warrantyDurations.durationDays, input.durationDays)));
  if (!duration) throw notFound("This option has no such warranty duration");
  const batchId = input.batchId ?? newId();
  const codes = Array.from({ length: input.count }, generateKeyCode);
  await db.insert(redeemKeys).values(
    codes.map((code) => {
      const normalised = normaliseKeyCode(code)!;
      return {
        keyHash: keyHash(normalised),
        codeHint: normalised.slice(-4),
        batchId,
        optionId: input.optionId,
        durationDays: input.durationDays,
        quantity: input.quantity,
        expiresAt: input.expiresAt ?? null,
      };
    }),
  );
  return { batchId, codes };
}

function stateCondition(state: KeyState, now: Date): SQL {
  switch (state) {
    case "used":
      return isNotNull(redeemKeys.usedAt);
    case "revoked":
      return isNotNull(redeemKeys.revokedAt);
    case "expired":
      return and(isNull(redeemKeys.usedAt), isNull(redeemKeys.revokedAt), lte(redeemKeys.expiresAt, now))!;
    case "unused":
      return and(
        isNull(redeemKeys.usedAt),
        isNull(redeemKeys.revokedAt),
        or(isNull(redeemKeys.expiresAt), gt(redeemKeys.expiresAt, now)),
      )!;
  }
}

function stateOf(row: { usedAt: Date | null; revokedAt: Date | null; expiresAt: Date | null }, now: Date): KeyState {
  if (row.usedAt) return "used";
  if (row.revokedAt) return "revoked";
  if (row.expiresAt && row.expiresAt <= now) return "expired";
  return "unused";
}

/** Keys newest first, KEYS_PAGE_SIZE a page, optionally one state, option, batch or code hint. */
export async function listKeys(
  db: Executor,
  query: { page: number; state?: KeyState; optionId?: string; batchId?: string; hint?: string },
  now = new Date(),
): Promise<KeyPage> {
  const conditions: SQL[] = [];
  if (query.state) conditions.push(stateCondition(query.state, now));
  if (query.optionId) conditions.push(eq(redeemKeys.optionId, query.optionId));
  if (query.batchId) conditions.push(eq(redeemKeys.batchId, query.batchId));
  if (query.hint) conditions.push(eq(redeemKeys.codeHint, query.hint.toUpperCase()));
  const where = conditions.length ? and(...conditions) : undefined;
  const { pager, rows } = await readPage(
    db,
    db
      .select({
        id: redeemKeys.id,
        hint: redeemKeys.codeHint,
        batchId: redeemKeys.batchId,
        productId: products.id,
        productTitle: products.title,
        optionId: productOptions.id,
        optionTitle: productOptions.title,
        durationDays: redeemKeys.durationDays,
        quantity: redeemKeys.quantity,
        createdAt: redeemKeys.createdAt,
        expiresAt: redeemKeys.expiresAt,
        usedAt: redeemKeys.usedAt,
        revokedAt: redeemKeys.revokedAt,
        orderId: redeemKeys.orderId,
        redeemedBy: users.email,
      })
      .from(redeemKeys)
      .innerJoin(productOptions, eq(productOptions.id, redeemKeys.optionId))
      .innerJoin(products, eq(products.id, productOptions.productId))
      .leftJoin(users, eq(users.id, redeemKeys.redeemedByUserId))
      .$dynamic(),
    { counted: redeemKeys, where, orderBy: newestFirst(redeemKeys), page: query.page, pageSize: KEYS_PAGE_SIZE },
  );
  return {
    records: rows.map((row) => ({
      _id: row.id,
      hint: row.hint,
      batchId: row.batchId,
      product: { _id: row.productId, title: row.productTitle },
      option: { _id: row.optionId, title: row.optionTitle },
      durationDays: row.durationDays,
      quantity: row.quantity,
      state: stateOf(row, now),
      createdAt: row.createdAt.toISOString(),
      expiresAt: row.expiresAt?.toISOString() ?? null,
      usedAt: row.usedAt?.toISOString() ?? null,
      revokedAt: row.revokedAt?.toISOString() ?? null,
      orderId: row.orderId,
      redeemedBy: row.redeemedBy,
    })),
    pager,
  };
}

/**
 * Revokes the unused keys among `keyIds` (a used key stays used: its order exists). One conditional UPDATE,
 * so a redemption racing the revocation either wins (the key is used) or finds it revoked. Answers the ids
 * that were revoked now.
 */
export async function revokeKeys(db: Executor, keyIds: string[], now = new Date()): Promise<string[]> {
  if (keyIds.length === 0) return [];
  const revoked = await db
    .update(redeemKeys)
    .set({ revokedAt: now })
    .where(and(inArray(redeemKeys.id, keyIds), isNull(redeemKeys.usedAt), isNull(redeemKeys.revokedAt)))
    .returning({ id: redeemKeys.id });
  return revoked.map((row) => row.id);
}
