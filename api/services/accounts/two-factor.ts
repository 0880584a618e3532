import { createCipheriv, createDecipheriv, createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, eq, isNull, sql } from "drizzle-orm";
import { generateSecret, generateSync, generateURI } from "otplib";
import QRCode from "qrcode";
import { isStaffRole } from "../../../contract/staff";
import type { TwoFactorSetup, TwoFactorStatus } from "../../../contract/answers/admin-security";
import type { StaffMember } from "../../../contract/answers/admin-staff";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { recoveryCodes, signInChallenges, storeSettings, users } from "../../db/schema";
import { AppError, badRequest, conflict, notFound } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { twoFactorLimitMail } from "../../mail/templates";
import { type StaffActor, recordAudit, auditAccount } from "../staff/audit";
import { type RateRule, RateLimitedError, countHit, hitRateLimit, uncountHit } from "../guards/rate-limit";
import { revokeAllSessions, revokeStaffSessions } from "./sessions";
import { memberOf } from "../staff/members";

/*
 * Staff two-factor sign-in (ADR 027): TOTP (RFC 6238: SHA-1, 30 s, 6 digits, one step either side) from an
 * authenticator app, with ten single-use recovery codes. The secret is stored encrypted with a key derived
 * from SESSION_SECRET; a code is accepted once (`totp_last_step`); recovery codes and sign-in challenges are
 * stored as hashes. An owner can require it of every staff member. Turning it on, and requiring it, sign out
 * every other session of the accounts concerned: a password-only session from before would outlive the rule
 * (ADR 035).
 */

export const TWO_FACTOR_MESSAGES = {
  wrongCode: "That code is not right. Enter the 6 digits your app shows now, or a recovery code.",
  notPending: "Start the set-up first: scan the code, then enter the 6 digits",
  alreadyOn: "Two-factor sign-in is already on",
  notOn: "Two-factor sign-in is not on",
  required: "The owner requires two-factor sign-in for all staff: it cannot be turned off",
  challengeGone: "This sign-in has expired. Sign in again with your password.",
  enrolFirst: "Turn on two-factor sign-in under Security to use the back office",
  ownerFirst: "Turn on your own two-factor sign-in before requiring it of all staff",
  notOnYourself: "You cannot reset your own two-factor sign-in: turn it off under Security with a code",
  noSuchStaff: "No staff member has this id",
  nothingToReset: "This staff member's two-factor sign-in is not on: there is nothing to reset",
} as const;

const REQUIRED_KEY = "staffTwoFactorRequired";
const STEP_SECONDS = 30;
const RECOVERY_CODES = 10;
const CHALLENGE_MINUTES = 5;
const CHALLENGE_ATTEMPTS = 5;
export const TWO_FACTOR_RULE: RateRule = { name: "two-factor:ip", limit: 20, windowMs: 15 * 60_000 };
/**
 * Wrong codes for one account from any address and challenge (ADR 035): once the password is known, many
 * addresses must not guess the code. Not scaled by RATE_LIMIT_SCALE, which is for shared addresses.
 */
export const TWO_FACTOR_ACCOUNT_RULE: RateRule = { name: "two-factor:account", limit: 10, windowMs: 60 * 60_000 };
/** The account's owner is mailed once per window in which the limit trips. */
const TWO_FACTOR_ACCOUNT_MAILED: RateRule = { name: "two-factor:account-mailed", limit: 1, windowMs: 60 * 60_000 };

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/**
 * AES-256-GCM under a key derived from the first SESSION_SECRET: a database copy alone gives no secret.
 * Rotating SESSION_SECRET (a new one first, the old one after it) must not lock staff out of two-factor sign-in:
 * a secret sealed under an older one still opens, and is sealed again under the first when its code is used.
 */
function secretKey(sessionSecret: string): Buffer {
  return createHash("sha256").update(`totp-secret:${sessionSecret}`).digest();
}
function encrypt(config: Pick<Config, "sessionSecrets">, plain: string): string {
  const iv = randomBytes(12);
  const cipher = createCipheriv("aes-256-gcm", secretKey(config.sessionSecrets[0]), iv);
  const body = Buffer.concat([cipher.update(plain, "utf8"), cipher.final()]);
  return [iv, cipher.getAuthTag(), body].map((part) => part.toString("base64url")).join(".");
}
function decrypt(config: Pick<Config, "sessionSecrets">, stored: string): { secret: string; resealed?: string } {
  const [iv, tag, body] = stored.split(".").map((part) => Buffer.from(part, "base64url"));
  for (const [index, sessionSecret] of config.sessionSecrets.entries()) {
    try {
      const decipher = createDecipheriv("aes-256-gcm", secretKey(sessionSecret), iv);
      decipher.setAuthTag(tag);
      const secret = Buffer.concat([decipher.update(body), decipher.final()]).toString("utf8");
      return index === 0 ? { secret } : { secret, resealed: encrypt(config, secret) };
    } catch {
      // Sealed under another of the secrets: try the next.
    }
  }
  throw new Error("A two-factor secret opens under none of the SESSION_SECRET values: was one removed too early?");
}

const sameCode = (a: string, b: string) => a.length === b.length && timingSafeEqual(Buffer.from(a), Buffer.from(b));

/** The step of a code that matches now (one step of clock drift either way), or null. */
export function matchingStep(secret: string, code: string, now: Date): number | null {
  const current = Math.floor(now.getTime() / 1000 / STEP_SECONDS);
  for (const step of [current - 1, current, current + 1]) {
    if (sameCode(generateSync({ secret, epoch: step * STEP_SECONDS }), code)) return step;
  }
  return null;
}

export async function isTwoFactorRequired(db: Executor): Promise<boolean> {
  const [row] = await db
    .select({ value: storeSettings.value })
    .from(storeSettings)
    .where(eq(storeSettings.key, REQUIRED_KEY));
  return row?.value === true;
}

export async function twoFactorStatus(db: Executor, userId: string): Promise<TwoFactorStatus> {
  const [user] = await db
    .select({ secret: users.totpSecret, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  const [{ left }] = await db
    .select({ left: sql<number>`count(*)`.mapWith(Number) })
    .from(recoveryCodes)
    .where(and(eq(recoveryCodes.userId, userId), isNull(recoveryCodes.usedAt)));
  return {
    enabled: user?.enabledAt != null,
    pending: user?.secret != null && user.enabledAt == null,
    recoveryCodesLeft: user?.enabledAt ? left : 0,
    requiredForAll: await isTwoFactorRequired(db),
  };
}

/** A fresh secret to scan; it counts only once a code from it is entered (enableTwoFactor). */
export async function startTwoFactorSetup(db: Database, config: Config, actor: StaffActor): Promise<TwoFactorSetup> {
  const [user] = await db
    .select({ email: users.email, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, actor.userId!));
  if (user.enabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
  const secret = generateSecret();
  await db
    .update(users)
    .set({ totpSecret: encrypt(config, secret), totpLastStep: null })
    .where(eq(users.id, actor.userId!));
  const issuer = new URL(config.publicUrl).host || "Store";
  const uri = generateURI({ issuer, label: user.email, secret });
  const qrSvg = await QRCode.toString(uri, { type: "svg", margin: 1 });
  return { secret, uri, qrSvg };
}

function newRecoveryCode(): string {
  // 10 characters from an alphabet without look-alikes, shown as two groups of five.
  const alphabet = "abcdefghjkmnpqrstuvwxyz23456789";
  const bytes = randomBytes(10);
  const code = Array.from(bytes, (byte) => alphabet[byte % alphabet.length]).join("");
  return `${code.slice(0, 5)}-${code.slice(5)}`;
}
const normalRecoveryCode = (code: string) => code.trim().toLowerCase().replace(/\s+/g, "");

/** Turns two-factor sign-in on with the first code from the app; answers the recovery codes, shown once. */
export async function enableTwoFactor(db: Database, config: Config, actor: StaffActor, code: string, now = new Date()) {
  return db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, actor.userId!)).for("update");
    if (user.totpEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.alreadyOn);
    if (!user.totpSecret) throw badRequest(TWO_FACTOR_MESSAGES.notPending, { code: [TWO_FACTOR_MESSAGES.notPending] });
    const { secret, resealed } = decrypt(config, user.totpSecret);
    const step = matchingStep(secret, code.trim(), now);
    if (step === null) throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { code: [TWO_FACTOR_MESSAGES.wrongCode] });
    await tx
      .update(users)
      .set({ totpEnabledAt: now, totpLastStep: step, ...(resealed && { totpSecret: resealed }) })
      .where(eq(users.id, user.id));
    await revokeAllSessions(tx, user.id, { now, keep: actor.sessionId });
    const codes = Array.from({ length: RECOVERY_CODES }, newRecoveryCode);
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await tx
      .insert(recoveryCodes)
      .values(codes.map((plain) => ({ userId: user.id, codeHash: sha256(normalRecoveryCode(plain)) })));
    await auditAccount(tx, actor, user, "two-factor.enable", {
      before: { twoFactor: false },
      after: { twoFactor: true },
    });
    return { recoveryCodes: codes };
  });
}

/**
 * Checks a code (6 digits, or a recovery code) for the locked user row; a TOTP code is spent by moving
 * totp_last_step, a recovery code by marking it used. Throws the same 400 for any wrong code.
 */
async function spendCode(tx: Executor, config: Config, user: typeof users.$inferSelect, code: string, now: Date) {
  const typed = code.trim();
  if (/^\d{6}$/.test(typed) && user.totpSecret) {
    const { secret, resealed } = decrypt(config, user.totpSecret);
    const step = matchingStep(secret, typed, now);
    if (step !== null && step > (user.totpLastStep ?? -1)) {
      await tx
        .update(users)
        .set({ totpLastStep: step, ...(resealed && { totpSecret: resealed }) })
        .where(eq(users.id, user.id));
      return "app" as const;
    }
  } else if (typed.length >= 10) {
    const used = await tx
      .update(recoveryCodes)
      .set({ usedAt: now })
      .where(
        and(
          eq(recoveryCodes.userId, user.id),
          eq(recoveryCodes.codeHash, sha256(normalRecoveryCode(typed))),
          isNull(recoveryCodes.usedAt),
        ),
      )
      .returning({ id: recoveryCodes.id });
    if (used.length === 1) return "recovery" as const;
  }
  throw badRequest(TWO_FACTOR_MESSAGES.wrongCode, { code: [TWO_FACTOR_MESSAGES.wrongCode] });
}

export async function disableTwoFactor(
  db: Database,
  config: Config,
  actor: StaffActor,
  code: string,
  now = new Date(),
) {
  if (await isTwoFactorRequired(db)) throw conflict(TWO_FACTOR_MESSAGES.required);
  await db.transaction(async (tx) => {
    const [user] = await tx.select().from(users).where(eq(users.id, actor.userId!)).for("update");
    if (!user.totpEnabledAt) throw conflict(TWO_FACTOR_MESSAGES.notOn);
    await spendCode(tx, config, user, code, now);
    await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null })
      .where(eq(users.id, user.id));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, user.id));
    await auditAccount(tx, actor, user, "two-factor.disable", {
      before: { twoFactor: true },
      after: { twoFactor: false },
    });
  });
}

/**
 * An owner resets another staff member's two-factor sign-in, for one who lost both the phone and the recovery
 * codes (issue 37): the secret and the codes are gone, every session of the member ends (and any sign-in waiting
 * for a code), and the audit log says who did it. The member signs in with the password and turns it on again
 * (at once, when owners require it). Never on oneself: one's own is turned off with a code, under Security.
 */
export async function resetStaffTwoFactor(
  db: Database,
  actor: StaffActor,
  memberId: string,
  now = new Date(),
): Promise<StaffMember> {
  if (memberId === actor.userId) throw conflict(TWO_FACTOR_MESSAGES.notOnYourself);
  return db.transaction(async (tx) => {
    const [member] = await tx.select().from(users).where(eq(users.id, memberId)).for("update");
    if (!member || !isStaffRole(member.role)) throw notFound(TWO_FACTOR_MESSAGES.noSuchStaff);
    if (!member.totpEnabledAt && !member.totpSecret) throw conflict(TWO_FACTOR_MESSAGES.nothingToReset);
    const [updated] = await tx
      .update(users)
      .set({ totpSecret: null, totpEnabledAt: null, totpLastStep: null, updatedAt: now })
      .where(eq(users.id, member.id))
      .returning();
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, member.id));
    await tx
      .update(signInChallenges)
      .set({ usedAt: now })
      .where(and(eq(signInChallenges.userId, member.id), isNull(signInChallenges.usedAt)));
    await revokeAllSessions(tx, member.id, { now });
    await auditAccount(tx, actor, member, "two-factor.reset", {
      before: { twoFactor: member.totpEnabledAt != null },
      after: { twoFactor: false },
    });
    return memberOf(updated);
  });
}

/**
 * Owners require two-factor sign-in of every staff member, or stop requiring it. Requiring it signs every
 * staff session out but the owner's current one: each signs in again under the rule.
 */
export async function setTwoFactorRequired(db: Database, actor: StaffActor, required: boolean) {
  // An owner without it would lock themselves out of the very switch that undoes this.
  if (required && !(await twoFactorStatus(db, actor.userId!)).enabled) throw conflict(TWO_FACTOR_MESSAGES.ownerFirst);
  await db.transaction(async (tx) => {
    const before = await isTwoFactorRequired(tx);
    await tx
      .insert(storeSettings)
      .values({ key: REQUIRED_KEY, value: required })
      .onConflictDoUpdate({ target: storeSettings.key, set: { value: required, updatedAt: new Date() } });
    if (required && !before) await revokeStaffSessions(tx, { keep: actor.sessionId });
    await recordAudit(tx, actor, {
      action: "two-factor.policy",
      objectType: "settings",
      objectId: REQUIRED_KEY,
      objectLabel: "Two-factor sign-in for all staff",
      before: { required: before },
      after: { required },
    });
  });
}

/** A staff account with two-factor sign-in on gets a challenge instead of a session after its password. */
export async function needsSecondFactor(db: Executor, userId: string): Promise<boolean> {
  const [user] = await db
    .select({ role: users.role, enabledAt: users.totpEnabledAt })
    .from(users)
    .where(eq(users.id, userId));
  return !!user && isStaffRole(user.role) && user.enabledAt !== null;
}

export async function issueSignInChallenge(db: Executor, userId: string, now = new Date()): Promise<string> {
  const challenge = randomBytes(32).toString("base64url");
  await db.insert(signInChallenges).values({
    userId,
    tokenHash: sha256(challenge),
    expiresAt: new Date(now.getTime() + CHALLENGE_MINUTES * 60_000),
  });
  return challenge;
}

/**
 * Counts a code attempt against the account before the code is checked, so codes sent at once cannot all
 * slip under the limit; a right code gives its count back (releaseCodeAttempt). Past the limit every code is
 * refused, the right one too, and the account's owner is mailed the first time.
 */
async function reserveCodeAttempt(db: Database, config: Config, userId: string, now: Date): Promise<void> {
  try {
    await hitRateLimit(db, TWO_FACTOR_ACCOUNT_RULE, userId, { now });
  } catch (error) {
    if (error instanceof RateLimitedError && (await countHit(db, TWO_FACTOR_ACCOUNT_MAILED, userId, now)) === 1) {
      const [user] = await db.select({ email: users.email }).from(users).where(eq(users.id, userId));
      if (user) await enqueueMail(db, twoFactorLimitMail({ to: user.email, publicUrl: config.publicUrl }), now);
    }
    throw error;
  }
}

const releaseCodeAttempt = (db: Database, userId: string, now: Date) =>
  uncountHit(db, TWO_FACTOR_ACCOUNT_RULE, userId, now);

type Challenge = typeof signInChallenges.$inferSelect;
const isLive = (challenge: Challenge | undefined, now: Date): challenge is Challenge =>
  !!challenge && !challenge.usedAt && challenge.expiresAt > now && challenge.attempts < CHALLENGE_ATTEMPTS;

/**
 * The second step of a staff sign-in: the challenge from the password step and a code. Answers the user id
 * to start a session for. A challenge is used once, lasts five minutes and allows five wrong codes; an
 * address may try 20 codes in 15 minutes, and an account take 10 wrong ones an hour.
 */
export async function completeSignInChallenge(
  db: Database,
  config: Config,
  input: { challenge: string; code: string; ip: string },
  now = new Date(),
): Promise<string> {
  await hitRateLimit(db, TWO_FACTOR_RULE, input.ip, { now, scale: config.rateLimitScale });
  const tokenHash = sha256(input.challenge);
  const gone = () => new AppError(401, TWO_FACTOR_MESSAGES.challengeGone);
  const [seen] = await db.select().from(signInChallenges).where(eq(signInChallenges.tokenHash, tokenHash));
  if (!isLive(seen, now)) throw gone();
  await reserveCodeAttempt(db, config, seen.userId, now);
  const outcome = await db
    .transaction(async (tx) => {
      const [challenge] = await tx
        .select()
        .from(signInChallenges)
        .where(eq(signInChallenges.tokenHash, tokenHash))
        .for("update");
      if (!isLive(challenge, now)) throw gone();
      const [user] = await tx.select().from(users).where(eq(users.id, challenge.userId)).for("update");
      try {
        await spendCode(tx, config, user, input.code, now);
      } catch (error) {
        return { kind: "wrong" as const, error: error as AppError, challengeId: challenge.id };
      }
      await tx.update(signInChallenges).set({ usedAt: now }).where(eq(signInChallenges.id, challenge.id));
      return { kind: "right" as const, userId: user.id };
    })
    .catch(async (error: unknown) => {
      // The challenge went meanwhile (used, or out of attempts, by requests at once): no code was judged.
      await releaseCodeAttempt(db, seen.userId, now);
      throw error;
    });
  if (outcome.kind === "wrong") {
    // Counted outside the refused transaction, so a wrong code still uses up an attempt.
    await db
      .update(signInChallenges)
      .set({ attempts: sql`${signInChallenges.attempts} + 1` })
      .where(eq(signInChallenges.id, outcome.challengeId));
    throw outcome.error;
  }
  await releaseCodeAttempt(db, seen.userId, now);
  return outcome.userId;
}
