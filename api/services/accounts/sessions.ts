import { createHash, randomBytes } from "node:crypto";
import { and, eq, gt, inArray, isNull, ne, sql } from "drizzle-orm";
import { type Role, STAFF_SESSION_HOURS } from "../../../contract/staff";
import type { Executor } from "../../db/client";
import { sessions, users } from "../../db/schema";

export const SESSION_LIFETIME_MS = 30 * 24 * 60 * 60 * 1000;
/**
 * A staff token can change stock, money and other people's accounts, so it lives hours, not weeks
 * (ADR 023). Counted from the session's start at each lookup, so a customer promoted to staff
 * does not keep a month-long token either.
 */
export const STAFF_SESSION_LIFETIME_MS = STAFF_SESSION_HOURS * 60 * 60 * 1000;
/** last_used_at is informative; writing it at most this often keeps reads from becoming writes. */
const LAST_USED_PRECISION_MS = 60 * 60 * 1000;

export type SessionUser = {
  id: string;
  username: string;
  email: string;
  role: Role;
  autoCreated: boolean;
  sessionId: string;
  /**
   * When this session's holder last proved who they are: a session is made at sign-in (password, code or
   * reset code), and a password change made on the strength of a recent sign-in carries it over.
   */
  signedInAt: Date;
};

/** Only this digest is stored: a database leak gives no usable token. */
export function tokenDigest(token: string): string {
  return createHash("sha256").update(token).digest("hex");
}

/**
 * A new bearer token (256 random bits) for the user; the caller hands it out once. `signedInAt` (default now)
 * is kept as the session's start: a replacement token made without a new sign-in keeps its predecessor's.
 */
export async function createSession(
  db: Executor,
  userId: string,
  options: { now?: Date; userAgent?: string; signedInAt?: Date } = {},
): Promise<string> {
  const now = options.now ?? new Date();
  const token = randomBytes(32).toString("base64url");
  await db.insert(sessions).values({
    userId,
    tokenHash: tokenDigest(token),
    createdAt: options.signedInAt ?? now,
    lastUsedAt: now,
    expiresAt: new Date(now.getTime() + SESSION_LIFETIME_MS),
    userAgent: options.userAgent?.slice(0, 256),
  });
  return token;
}

/** The signed-in user behind a token, or undefined when it is unknown, revoked, expired, or its account blocked. */
export async function userForToken(db: Executor, token: string, now = new Date()): Promise<SessionUser | undefined> {
  const [row] = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      role: users.role,
      autoCreated: users.autoCreated,
      sessionId: sessions.id,
      sessionCreatedAt: sessions.createdAt,
      lastUsedAt: sessions.lastUsedAt,
    })
    .from(sessions)
    .innerJoin(users, eq(users.id, sessions.userId))
    .where(
      and(
        eq(sessions.tokenHash, tokenDigest(token)),
        isNull(sessions.revokedAt),
        gt(sessions.expiresAt, now),
        // Blocking revokes every session too; this also stops a token made later (ADR 026).
        isNull(users.blockedAt),
        // A sign-in that checked the password just before the account was deleted gets a token that never works (ADR 044).
        isNull(users.deletedAt),
      ),
    )
    .limit(1);
  if (!row) return undefined;
  if (row.role !== "customer" && now.getTime() - row.sessionCreatedAt.getTime() >= STAFF_SESSION_LIFETIME_MS) {
    return undefined;
  }
  if (now.getTime() - row.lastUsedAt.getTime() > LAST_USED_PRECISION_MS) {
    await db.update(sessions).set({ lastUsedAt: now }).where(eq(sessions.id, row.sessionId));
  }
  const { lastUsedAt: _lastUsed, sessionCreatedAt: signedInAt, ...user } = row;
  return { ...user, signedInAt };
}

export async function revokeSession(db: Executor, sessionId: string, now = new Date()): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: now })
    .where(and(eq(sessions.id, sessionId), isNull(sessions.revokedAt)));
}

/** Signs every staff account (any role but customer) out everywhere, except the session named in `keep`. */
export async function revokeStaffSessions(db: Executor, options: { now?: Date; keep?: string } = {}): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: options.now ?? new Date() })
    .where(
      and(
        inArray(sessions.userId, db.select({ id: users.id }).from(users).where(ne(users.role, "customer"))),
        isNull(sessions.revokedAt),
        options.keep ? ne(sessions.id, options.keep) : sql`true`,
      ),
    );
}

/** Signs the user out everywhere, except the session named in `keep` when given. */
export async function revokeAllSessions(
  db: Executor,
  userId: string,
  options: { now?: Date; keep?: string } = {},
): Promise<void> {
  await db
    .update(sessions)
    .set({ revokedAt: options.now ?? new Date() })
    .where(
      and(
        eq(sessions.userId, userId),
        isNull(sessions.revokedAt),
        options.keep ? ne(sessions.id, options.keep) : sql`true`,
      ),
    );
}
