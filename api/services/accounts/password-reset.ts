import { createHmac, randomInt, timingSafeEqual } from "node:crypto";
import { and, desc, eq, gt, isNull, lt, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import { newId } from "../../db/ids";
import { passwordResets, users } from "../../db/schema";
import { badRequest } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { accountChangedMail, resetCodeMail } from "../../mail/templates";
import { forgetAllDevices } from "./known-devices";
import { hashPassword, passwordProblem } from "./passwords";
import { RATE_RULES, hitRateLimit, subjectKey } from "../guards/rate-limit";
import { createSession, revokeAllSessions } from "./sessions";
import { assertAccountNotBlocked } from "../customers/blocks";

export const RESET_CODE_LIFETIME_MS = 10 * 60_000;
export const RESET_CODE_MAX_TRIES = 5;
const RESET_REQUEST_MIN_MS = 250;
export const RESET_REQUESTED = "If an account exists for that email, we have sent a reset code.";
/** One message for every failure: a different one would tell who has an account or a pending code. */
export const INVALID_RESET_CODE = "The code is invalid or has expired. Please check it or request a new one.";

type Context = { db: Database; config: Config; ip: string; now?: Date; userAgent?: string };

/** Codes are stored as HMACs keyed by SESSION_SECRET: a leaked table does not give a 6-digit code away in a second. */
function codeDigest(secret: string, resetId: string, code: string): string {
  return createHmac("sha256", secret).update(`password-reset:${resetId}:${code}`).digest("base64url");
}

function codeMatches(secrets: string[], resetId: string, code: string, stored: string): boolean {
  const expected = Buffer.from(stored);
  return secrets.some((secret) => {
    const actual = Buffer.from(codeDigest(secret, resetId, code));
    return actual.length === expected.length && timingSafeEqual(actual, expected);
  });
}

async function accountByEmail(db: Database, email: string) {
  const [user] = await db
    .select({ id: users.id, username: users.username, email: users.email })
    .from(users)
    .where(sql`lower(${users.email}) = lower(${email})`)
    .limit(1);
  return user;
}

/**
 * Mails a new 6-digit code when the email has an account; earlier codes stop working.
 * The caller answers RESET_REQUESTED either way.
 */
export async function requestPasswordReset(ctx: Context, email: string): Promise<void> {
  const started = performance.now();
  const now = ctx.now ?? new Date();
  const scale = ctx.config.rateLimitScale;
  await hitRateLimit(ctx.db, RATE_RULES.forgetPerAddress, ctx.ip, { now, scale });
  await hitRateLimit(ctx.db, RATE_RULES.forgetPerEmail, subjectKey(email), { now, scale });
  const user = await accountByEmail(ctx.db, email);
  if (user) await issueResetCode(ctx, user, now);
  // Writing a code and a mail takes a few milliseconds that an unknown email does not: pad both to one time.
  const remaining = RESET_REQUEST_MIN_MS - (performance.now() - started);
  if (remaining > 0) await new Promise((resolve) => setTimeout(resolve, remaining));
}

async function issueResetCode(ctx: Context, user: { id: string; email: string }, now: Date): Promise<void> {
  const code = randomInt(0, 1_000_000).toString().padStart(6, "0");
  const resetId = newId();
  await ctx.db.transaction(async (tx) => {
    await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.userId, user.id), isNull(passwordResets.usedAt)));
    await tx.insert(passwordResets).values({
      id: resetId,
      userId: user.id,
      codeHash: codeDigest(ctx.config.sessionSecrets[0], resetId, code),
      expiresAt: new Date(now.getTime() + RESET_CODE_LIFETIME_MS),
      createdAt: now,
    });
    await enqueueMail(
      tx,
      resetCodeMail({
        to: user.email,
        code,
        publicUrl: ctx.config.publicUrl,
        validMinutes: RESET_CODE_LIFETIME_MS / 60_000,
      }),
      now,
    );
  });
}

/**
 * Sets a new password with a mailed code, signs the account out everywhere and answers a
 * token for this browser. Each code takes at most RESET_CODE_MAX_TRIES guesses, counted
 * atomically, so parallel guesses cannot exceed it either.
 */
export async function resetPassword(
  ctx: Context,
  input: { email: string; otp: string; password: string },
): Promise<{ token: string }> {
  const now = ctx.now ?? new Date();
  const scale = ctx.config.rateLimitScale;
  await hitRateLimit(ctx.db, RATE_RULES.resetPerAddress, ctx.ip, { now, scale });
  await hitRateLimit(ctx.db, RATE_RULES.resetPerEmail, subjectKey(input.email), { now, scale });
  // Rules that need no account come first, so a typo in the new password costs no guess.
  const generalProblem = passwordProblem(input.password);
  if (generalProblem) throw badRequest(generalProblem, { password: [generalProblem] });

  const invalid = () => badRequest(INVALID_RESET_CODE, { otp: [INVALID_RESET_CODE] });
  const user = await accountByEmail(ctx.db, input.email);
  if (!user) throw invalid();
  const live = and(
    isNull(passwordResets.usedAt),
    gt(passwordResets.expiresAt, now),
    lt(passwordResets.attempts, RESET_CODE_MAX_TRIES),
  );
  const [latest] = await ctx.db
    .select({ id: passwordResets.id })
    .from(passwordResets)
    .where(and(eq(passwordResets.userId, user.id), live))
    .orderBy(desc(passwordResets.createdAt))
    .limit(1);
  if (!latest) throw invalid();
  // Counting the guess repeats the conditions, which PostgreSQL re-checks on the locked row: parallel guesses cannot pass the limit.
  const [reset] = await ctx.db
    .update(passwordResets)
    .set({ attempts: sql`${passwordResets.attempts} + 1` })
    .where(and(eq(passwordResets.id, latest.id), live))
    .returning({ id: passwordResets.id, codeHash: passwordResets.codeHash });
  if (!reset) throw invalid();
  if (!codeMatches(ctx.config.sessionSecrets, reset.id, input.otp, reset.codeHash)) throw invalid();
  await assertAccountNotBlocked(ctx.db, user.id);

  const accountProblem = passwordProblem(input.password, user);
  if (accountProblem) throw badRequest(accountProblem, { password: [accountProblem] });
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    const [spent] = await tx
      .update(passwordResets)
      .set({ usedAt: now })
      .where(and(eq(passwordResets.id, reset.id), isNull(passwordResets.usedAt)))
      .returning({ id: passwordResets.id });
    // Two requests with the right code at once: only one of them sets the password.
    if (!spent) throw invalid();
    await tx.update(users).set({ passwordHash, autoCreated: false, updatedAt: now }).where(eq(users.id, user.id));
    await revokeAllSessions(tx, user.id, { now });
    await forgetAllDevices(tx, user.id);
    await enqueueMail(
      tx,
      accountChangedMail({ to: user.email, change: "password", publicUrl: ctx.config.publicUrl }),
      now,
    );
    return { token: await createSession(tx, user.id, { now, userAgent: ctx.userAgent }) };
  });
}
