import { randomInt } from "node:crypto";
import { and, ne, sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Database, Executor } from "../../db/client";
import { users } from "../../db/schema";
import { badRequest, conflict } from "../../errors";
import { USERNAME_CHARACTERS } from "../../../contract/account";
import { hashPassword, passwordProblem } from "./passwords";
import { RATE_RULES, hitRateLimit, subjectKey } from "../guards/rate-limit";
import { createSession } from "./sessions";

import { EMAIL_TAKEN } from "../../../contract/browser/account";

/*
 * A person's account: its unique username and email, and making one (sign-up, a guest's checkout). Signing
 * in is login.ts; reading and changing one's own account is profile.ts.
 */

export { EMAIL_TAKEN };
export const USERNAME_TAKEN = "This username is already taken. Please choose another one.";

export type AccountContext = { db: Database; config: Config; ip: string; now?: Date; userAgent?: string };

/** Same unique value, other letter case: the schema's lower() indexes decide, this only reads. */
export const sameText = (column: typeof users.username | typeof users.email, value: string) =>
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
export function conflictFromUniqueViolation(error: unknown): never {
  const index = brokenUniqueIndex(error);
  if (index === "users_email_lower_key") throw conflict(EMAIL_TAKEN);
  if (index === "users_username_lower_key") throw conflict(USERNAME_TAKEN);
  throw error;
}

export async function assertAvailable(
  db: Executor,
  fields: { username?: string; email?: string },
  exceptUserId?: string,
) {
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

export function assertPasswordAcceptable(password: string, account: { username?: string; email?: string }) {
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
  ctx: AccountContext,
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
  ctx: AccountContext,
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
export async function prepareGuestAccount(ctx: AccountContext, email: string): Promise<NewAccount> {
  if (email.length > 64 || !USERNAME_CHARACTERS.test(email)) {
    const problem = "This email address cannot be used for an account. Please use another one.";
    throw badRequest(problem, { email: [problem] });
  }
  let password = "";
  for (let index = 0; index < GUEST_PASSWORD_LENGTH; index++)
    password += GUEST_PASSWORD_ALPHABET[randomInt(GUEST_PASSWORD_ALPHABET.length)];
  return prepareAccount(ctx, { username: email, email, password, autoCreated: true });
}
