import { randomBytes } from "node:crypto";
import { and, eq, gt, inArray, lt } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { knownDevices } from "../../db/schema";
import { tokenDigest } from "./sessions";

/** A browser that has not signed in for this long is a stranger again. */
export const KNOWN_DEVICE_LIFETIME_MS = 365 * 24 * 60 * 60 * 1000;
/** last_used_at only bounds the lifetime; writing it at most daily keeps sign-ins from churning rows. */
const LAST_USED_PRECISION_MS = 24 * 60 * 60 * 1000;

const DEVICE_TOKEN = /^[A-Za-z0-9_-]{43}$/;

/**
 * Which of `userIds` have signed in from the browser holding `deviceToken` within the lifetime.
 * Several ids because one sign-in name can match two accounts (a guest's email is its username).
 */
export async function accountsKnownToDevice(
  db: Executor,
  deviceToken: string | undefined,
  userIds: string[],
  now = new Date(),
): Promise<Set<string>> {
  if (!deviceToken || !DEVICE_TOKEN.test(deviceToken) || userIds.length === 0) return new Set();
  const rows = await db
    .select({ userId: knownDevices.userId })
    .from(knownDevices)
    .where(
      and(
        eq(knownDevices.tokenHash, tokenDigest(deviceToken)),
        inArray(knownDevices.userId, userIds),
        gt(knownDevices.lastUsedAt, new Date(now.getTime() - KNOWN_DEVICE_LIFETIME_MS)),
      ),
    );
  return new Set(rows.map((row) => row.userId));
}

/**
 * Records that the browser signed in to `userId` and answers the token it should keep: the one it
 * presented when we issued it before (for this account or another), otherwise a new 256-bit one.
 * A token we never issued is not adopted, so a client cannot pick its own.
 */
export async function rememberDevice(
  db: Executor,
  userId: string,
  presentedToken: string | undefined,
  now = new Date(),
): Promise<string> {
  let token = randomBytes(32).toString("base64url");
  if (presentedToken && DEVICE_TOKEN.test(presentedToken)) {
    const [issued] = await db
      .select({ id: knownDevices.id })
      .from(knownDevices)
      .where(eq(knownDevices.tokenHash, tokenDigest(presentedToken)))
      .limit(1);
    if (issued) token = presentedToken;
  }
  await db
    .insert(knownDevices)
    .values({ userId, tokenHash: tokenDigest(token), createdAt: now, lastUsedAt: now })
    .onConflictDoUpdate({
      target: [knownDevices.tokenHash, knownDevices.userId],
      set: { lastUsedAt: now },
      setWhere: lt(knownDevices.lastUsedAt, new Date(now.getTime() - LAST_USED_PRECISION_MS)),
    });
  return token;
}

/** Forgets every browser of the account: after a password change or reset a thief's browser is a stranger. */
export async function forgetAllDevices(db: Executor, userId: string): Promise<void> {
  await db.delete(knownDevices).where(eq(knownDevices.userId, userId));
}
