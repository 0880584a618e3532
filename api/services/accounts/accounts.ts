import { randomInt } from "node:crypto";
import { and, count, eq, inArray, ne, or, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { orders, tickets, users } from "../../db/schema";
import { AppError, badRequest, conflict, notFound, unauthorized } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { accountChangedMail } from "../../mail/templates";
import type { Logger } from "../../logger";
import { INVALID_LOGIN, USERNAME_CHARACTERS } from "../../../contract/account";
import { centsToUsd } from "../../../contract/money";
import { PAID_ORDER_STATUSES } from "../../../contract/order";
import type { AccountProfile } from "../../../contract/answers/user";
import { hashPassword, needsRehash, passwordProblem, verifyAgainstNobody, verifyPassword } from "./passwords";
import {
  HUMAN_CHECK_FAILED,
  HUMAN_CHECK_FIELD,
  HUMAN_CHECK_REQUIRED,
  humanCheckRefusal,
  verifyHumanCheck,
} from "../guards/human-check";
import { accountsKnownToDevice, forgetAllDevices, rememberDevice } from "./known-devices";
import { RATE_RULES, countHit, hitRateLimit, hitsSoFar, subjectKey } from "../guards/rate-limit";
import { type SessionUser, createSession, revokeAllSessions } from "./sessions";
import { assertAccountNotBlocked } from "../customers/blocks";
import { completeSignInChallenge, issueSignInChallenge, needsSecondFactor } from "./two-factor";

import { EMAIL_TAKEN } from "../../../contract/browser/account";

export { EMAIL_TAKEN };
export const USERNAME_TAKEN = "This username is already taken. Please choose another one.";
const WRONG_CURRENT_PASSWORD = "Your current password is not correct";
/** How long after signing in a session may change the email or password without the current password. */
export const REAUTHENTICATION_WINDOW_MS = 10 * 60_000;
export const CURRENT_PASSWORD_NEEDED =
  "Please enter your current password, or sign in again: you signed in more than 10 minutes ago";

type Context = { db: Database; config: Config; ip: string; now?: Date; userAgent?: string };

/** Same unique value, other letter case: the schema's lower() indexes decide, this only reads. */
const sameText = (column: typeof users.username | typeof users.email, value: string) =>
  sql`lower(${column}) = lower(${value})`;

/** Which of our unique rules a failed insert or update broke, if any (PGlite and postgres.js name it differently). */
export function brokenUniqueIndex(error: unknown): string | undefined {
  for (let cause = error; cause && typeof cause === "object"; cause = (cause as { cause?: unknown }).cause) {
    const fields = cause as { code?: unknown; constraint?: unknown; constraint_name?: unknown };
    if (fields.code === "23505") return String(fields.constraint_name ?? fields.constraint ?? "");
  }
  return undefined;
}

/** Turns a lost race for a username or email into the same 409 the earlier check gives. */
function conflictFromUniqueViolation(error: unknown): never {
  const index = brokenUniqueIndex(error);
  if (index === "users_email_lower_key") throw conflict(EMAIL_TAKEN);
  if (index === "users_username_lower_key") throw conflict(USERNAME_TAKEN);
  throw error;
}

async function assertAvailable(db: Executor, fields: { username?: string; email?: string }, exceptUserId?: string) {
  const others = exceptUserId ? ne(users.id, exceptUserId) : sql`true`;
  if (fields.email) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sameText(users.email, fields.email), others))
      .limit(1);
    if (taken) throw conflict(EMAIL_TAKEN);
  }
  if (fields.username) {
    const [taken] = await db
      .select({ id: users.id })
      .from(users)
      .where(and(sameText(users.username, fields.username), others))
      .limit(1);
    if (taken) throw conflict(USERNAME_TAKEN);
  }
}

function assertPasswordAcceptable(password: string, account: { username?: string; email?: string }) {
  const problem = passwordProblem(password, account);
  if (problem) throw badRequest(problem, { password: [problem] });
}

/** An account about to be written: checked (rate limits, rules, free names) and its password hashed. */
export type NewAccount = { username: string; email: string; passwordHash: string; autoCreated: boolean };

/** Writes the account row; a lost race for the username or email is the same 409 as the earlier check. */
export async function insertAccount(tx: Executor, account: NewAccount, now: Date): Promise<string> {
  try {
    const [user] = await tx
      .insert(users)
      .values({ ...account, createdAt: now, updatedAt: now })
      .returning({ id: users.id });
    return user.id;
  } catch (error) {
    conflictFromUniqueViolation(error);
  }
}

async function prepareAccount(
  ctx: Context,
  input: { username: string; email: string; password: string; autoCreated: boolean },
): Promise<NewAccount> {
  const now = ctx.now ?? new Date();
  const scale = ctx.config.rateLimitScale;
  await hitRateLimit(ctx.db, RATE_RULES.registerPerAddress, ctx.ip, { now, scale });
  await hitRateLimit(ctx.db, RATE_RULES.registerPerEmail, subjectKey(input.email), { now, scale });
  assertPasswordAcceptable(input.password, input);
  await assertAvailable(ctx.db, input);
  return {
    username: input.username,
    email: input.email,
    passwordHash: await hashPassword(input.password),
    autoCreated: input.autoCreated,
  };
}

/**
 * Creates an account and signs it in. `autoCreated` marks the guest-checkout variant, whose
 * generated password the owner never saw (they set one later through the reset flow or settings).
 */
export async function registerAccount(
  ctx: Context,
  input: { username: string; email: string; password: string; autoCreated?: boolean },
): Promise<{ token: string; userId: string }> {
  const now = ctx.now ?? new Date();
  const account = await prepareAccount(ctx, { ...input, autoCreated: input.autoCreated ?? false });
  return ctx.db.transaction(async (tx) => {
    const userId = await insertAccount(tx, account, now);
    const token = await createSession(tx, userId, { now, userAgent: ctx.userAgent });
    return { token, userId };
  });
}

/** Spec section 9: the password generated for a guest's account has 10 characters. */
export const GUEST_PASSWORD_LENGTH = 10;
const GUEST_PASSWORD_ALPHABET = "ABCDEFGHJKLMNPQRSTUVWXYZabcdefghijkmnopqrstuvwxyz23456789";

/**
 * The account of a guest checkout (spec section 4), checked and hashed but not written: the email is
 * the username too, the password is generated and never shown (the owner sets one through Forgot
 * password). The caller writes it with insertAccount in the order's transaction.
 */
export async function prepareGuestAccount(ctx: Context, email: string): Promise<NewAccount> {
  if (email.length > 64 || !USERNAME_CHARACTERS.test(email)) {
    const problem = "This email address cannot be used for an account. Please use another one.";
    throw badRequest(problem, { email: [problem] });
  }
  let password = "";
  for (let index = 0; index < GUEST_PASSWORD_LENGTH; index++)
    password += GUEST_PASSWORD_ALPHABET[randomInt(GUEST_PASSWORD_ALPHABET.length)];
  return prepareAccount(ctx, { username: email, email, password, autoCreated: true });
}

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
  ctx: Context & { logger?: Logger },
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
  ctx: Pick<Context, "db" | "userAgent">,
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
  ctx: Context,
  input: { challenge: string; code: string; deviceToken?: string },
): Promise<SignedIn> {
  const now = ctx.now ?? new Date();
  const userId = await completeSignInChallenge(ctx.db, ctx.config, { ...input, ip: ctx.ip }, now);
  await assertAccountNotBlocked(ctx.db, userId);
  return startSession(ctx, userId, input.deviceToken, now);
}

export type Profile = AccountProfile;

/** Orders count every order of the account except ones that expired or were cancelled unpaid. */
export async function readProfile(db: Executor, userId: string): Promise<Profile> {
  const [user] = await db
    .select({
      username: users.username,
      email: users.email,
      balanceCents: users.balanceCents,
      createdAt: users.createdAt,
    })
    .from(users)
    .where(eq(users.id, userId));
  if (!user) throw notFound("Account not found");
  const [orderCount] = await db
    .select({
      value: sql<number>`count(*) filter (where ${orders.status} not in ('expired', 'cancelled'))`.mapWith(Number),
      completed: sql<number>`count(*) filter (where ${orders.status} = 'completed')`.mapWith(Number),
      spentCents:
        sql<number>`coalesce(sum(${orders.priceCents}) filter (where ${inArray(orders.status, [...PAID_ORDER_STATUSES])}), 0)`.mapWith(
          Number,
        ),
    })
    .from(orders)
    .where(eq(orders.userId, userId));
  const [ticketCount] = await db
    .select({
      value: count(),
      open: sql<number>`count(*) filter (where ${tickets.status} = 'open')`.mapWith(Number),
    })
    .from(tickets)
    .where(eq(tickets.userId, userId));
  return {
    username: user.username,
    email: user.email,
    balance: centsToUsd(user.balanceCents),
    orders: orderCount.value,
    completedOrders: orderCount.completed,
    spent: centsToUsd(orderCount.spentCents),
    tickets: Number(ticketCount.value),
    openTickets: ticketCount.open,
    created: user.createdAt.toISOString(),
  };
}

async function accountOf(db: Executor, userId: string) {
  const [user] = await db.select().from(users).where(eq(users.id, userId));
  if (!user) throw unauthorized();
  return user;
}

/** The session a change comes through: its account, and when it signed in. */
export type ChangingSession = Pick<SessionUser, "id" | "signedInAt">;

/**
 * Re-authentication for sensitive changes (ASVS 3.7.1, ADR 035): the current password, or a sign-in within
 * the last 10 minutes (a re-authentication window, as GitHub's sudo mode), so the spec's own client, which
 * sends no current password, works right after signing in. A password given is always checked. A
 * guest-checkout account never saw its generated password, so while it is auto-created its session alone is
 * enough. Answers whether the password was proved now.
 */
async function reauthenticate(
  ctx: Context,
  user: { id: string; passwordHash: string; autoCreated: boolean },
  session: ChangingSession,
  currentPassword: string | undefined,
): Promise<"password" | "session"> {
  const now = ctx.now ?? new Date();
  if (!currentPassword) {
    if (user.autoCreated || now.getTime() - session.signedInAt.getTime() < REAUTHENTICATION_WINDOW_MS) return "session";
    throw badRequest(CURRENT_PASSWORD_NEEDED, { currentPassword: [CURRENT_PASSWORD_NEEDED] });
  }
  if (user.autoCreated) return "session";
  await hitRateLimit(ctx.db, RATE_RULES.reauthPerAccount, user.id, { now, scale: ctx.config.rateLimitScale });
  if (!(await verifyPassword(user.passwordHash, currentPassword))) {
    throw badRequest(WRONG_CURRENT_PASSWORD, { currentPassword: [WRONG_CURRENT_PASSWORD] });
  }
  return "password";
}

export async function updateUsername(ctx: Context, userId: string, username: string): Promise<void> {
  await assertAvailable(ctx.db, { username }, userId);
  try {
    await ctx.db
      .update(users)
      .set({ username, updatedAt: ctx.now ?? new Date() })
      .where(eq(users.id, userId));
  } catch (error) {
    conflictFromUniqueViolation(error);
  }
}

/** Changes the email after re-authentication and tells the old address, in case it was not the owner. */
export async function updateEmail(
  ctx: Context,
  session: ChangingSession,
  input: { email: string; currentPassword?: string },
): Promise<void> {
  const userId = session.id;
  const user = await accountOf(ctx.db, userId);
  await reauthenticate(ctx, user, session, input.currentPassword);
  if (user.email === input.email) return;
  await assertAvailable(ctx.db, { email: input.email }, userId);
  try {
    await ctx.db.transaction(async (tx) => {
      await tx
        .update(users)
        .set({ email: input.email, updatedAt: ctx.now ?? new Date() })
        .where(eq(users.id, userId));
      await enqueueMail(tx, accountChangedMail({ to: user.email, change: "email", publicUrl: ctx.config.publicUrl }));
    });
  } catch (error) {
    conflictFromUniqueViolation(error);
  }
}

/**
 * Sets a new password, signs the account out everywhere and answers a fresh token, so the
 * browser that made the change stays signed in and every other one (a thief's too) is out.
 * The fresh token counts as a sign-in only when the current password was given: otherwise it
 * keeps the old session's sign-in time, so the re-authentication window never grows.
 */
export async function updatePassword(
  ctx: Context,
  session: ChangingSession,
  input: { password: string; currentPassword?: string },
): Promise<{ token: string }> {
  const now = ctx.now ?? new Date();
  const userId = session.id;
  const user = await accountOf(ctx.db, userId);
  const proved = await reauthenticate(ctx, user, session, input.currentPassword);
  assertPasswordAcceptable(input.password, user);
  const passwordHash = await hashPassword(input.password);
  return ctx.db.transaction(async (tx) => {
    await tx.update(users).set({ passwordHash, autoCreated: false, updatedAt: now }).where(eq(users.id, userId));
    await revokeAllSessions(tx, userId, { now });
    await forgetAllDevices(tx, userId);
    await enqueueMail(tx, accountChangedMail({ to: user.email, change: "password", publicUrl: ctx.config.publicUrl }));
    const signedInAt = proved === "password" ? now : session.signedInAt;
    return { token: await createSession(tx, userId, { now, userAgent: ctx.userAgent, signedInAt }) };
  });
}
