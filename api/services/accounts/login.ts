import { eq, or, sql } from "drizzle-orm";
import { users } from "../../db/schema";
import { AppError } from "../../errors";
import type { Logger } from "../../logger";
import { INVALID_LOGIN } from "../../../contract/account";
import { hashPassword, needsRehash, verifyAgainstNobody, verifyPassword } from "./passwords";
import {
  HUMAN_CHECK_FAILED,
  HUMAN_CHECK_FIELD,
  HUMAN_CHECK_REQUIRED,
  humanCheckRefusal,
  verifyHumanCheck,
} from "../guards/human-check";
import { accountsKnownToDevice, rememberDevice } from "./known-devices";
import { RATE_RULES, countHit, hitRateLimit, hitsSoFar, subjectKey } from "../guards/rate-limit";
import { createSession } from "./sessions";
import { assertAccountNotBlocked } from "../customers/blocks";
import { completeSignInChallenge, issueSignInChallenge, needsSecondFactor } from "./two-factor";
import { type AccountContext, sameText } from "./accounts";

/* Signing in (ADR 010, 015, 027): the password step, the staff's two-factor step, the session and remembered device. */

export type LoginInput = {
  username: string;
  password: string;
  /** The browser's device token from an earlier sign-in, if it kept one. */
  deviceToken?: string;
  /** The human-check answer, needed once the account has had many failed sign-ins. */
  humanCheckAnswer?: string;
};

/**
 * Signs in by username or email. Unknown accounts cost one argon2 verification too, and every
 * failure gives the same answer, so neither the message nor the time tells who has an account.
 *
 * Failures from anywhere never lock the owner out (ADR 015): past a few of them, a browser the
 * account does not know must pass the human check with the password, while a browser that signed
 * in before goes on as usual. The per-address limits stop any one guessing address.
 */
export async function login(
  ctx: AccountContext & { logger?: Logger },
  input: LoginInput,
): Promise<SignedIn | { twoFactorRequired: true; challenge: string }> {
  const now = ctx.now ?? new Date();
  const scale = ctx.config.rateLimitScale;
  const account = subjectKey(input.username);
  await hitRateLimit(ctx.db, RATE_RULES.loginPerAddress, ctx.ip, { now, scale });
  await hitRateLimit(ctx.db, RATE_RULES.loginPerAddressAndAccount, `${ctx.ip}:${account}`, { now, scale });

  // A guest account's username is its email, so one name can match two accounts; the username wins ties.
  const candidates = await ctx.db
    .select({ id: users.id, passwordHash: users.passwordHash })
    .from(users)
    .where(or(sameText(users.username, input.username), sameText(users.email, input.username)))
    .orderBy(sql`lower(${users.username}) = lower(${input.username}) desc`)
    .limit(2);
  const knownTo = await accountsKnownToDevice(
    ctx.db,
    input.deviceToken,
    candidates.map((candidate) => candidate.id),
    now,
  );
  const device = knownTo.size > 0 ? subjectKey(input.deviceToken!) : undefined;
  const { loginFailuresBeforeHumanCheck: accountRule, loginFailuresPerDevice: deviceRule } = RATE_RULES;
  const trusted = async () =>
    device !== undefined && (await hitsSoFar(ctx.db, deviceRule, device, now)) < deviceRule.limit;

  if ((await hitsSoFar(ctx.db, accountRule, account, now)) >= accountRule.limit && !(await trusted())) {
    const check = await verifyHumanCheck(ctx, input.humanCheckAnswer, { ip: ctx.ip, now });
    if (!check.ok) {
      ctx.logger?.info("login human check failed", { reason: check.reason });
      const message = humanCheckRefusal(check, check.reason === "missing" ? HUMAN_CHECK_REQUIRED : HUMAN_CHECK_FAILED);
      throw new AppError(400, message, { [HUMAN_CHECK_FIELD]: [message] }, { humanCheckRequired: true });
    }
  }

  if (candidates.length === 0) await verifyAgainstNobody(input.password);
  for (const candidate of candidates) {
    if (!(await verifyPassword(candidate.passwordHash, input.password))) continue;
    await assertAccountNotBlocked(ctx.db, candidate.id);
    if (needsRehash(candidate.passwordHash)) {
      await ctx.db
        .update(users)
        .set({ passwordHash: await hashPassword(input.password) })
        .where(eq(users.id, candidate.id));
    }
    // Staff with two-factor sign-in get a session only after their code (ADR 027).
    if (await needsSecondFactor(ctx.db, candidate.id)) {
      return { twoFactorRequired: true, challenge: await issueSignInChallenge(ctx.db, candidate.id, now) };
    }
    return startSession(ctx, candidate.id, input.deviceToken, now);
  }
  const failures = await countHit(ctx.db, accountRule, account, now);
  if (device) await countHit(ctx.db, deviceRule, device, now);
  // Said now, so the page can show the check before the next try instead of after it.
  const checkNext = failures >= accountRule.limit && !(await trusted());
  throw new AppError(401, INVALID_LOGIN, undefined, checkNext ? { humanCheckRequired: true } : undefined);
}

export type SignedIn = { token: string; deviceToken: string };

/** A session and a remembered browser for an account whose sign-in is complete. */
export async function startSession(
  ctx: Pick<AccountContext, "db" | "userAgent">,
  userId: string,
  deviceToken: string | undefined,
  now: Date,
): Promise<SignedIn> {
  return {
    token: await createSession(ctx.db, userId, { now, userAgent: ctx.userAgent }),
    deviceToken: await rememberDevice(ctx.db, userId, deviceToken, now),
  };
}

/** The second step of a staff sign-in with two-factor on: the password step's challenge and a code. */
export async function loginWithSecondFactor(
  ctx: AccountContext,
  input: { challenge: string; code: string; deviceToken?: string },
): Promise<SignedIn> {
  const now = ctx.now ?? new Date();
  const userId = await completeSignInChallenge(ctx.db, ctx.config, { ...input, ip: ctx.ip }, now);
  await assertAccountNotBlocked(ctx.db, userId);
  return startSession(ctx, userId, input.deviceToken, now);
}
