import { count, eq, inArray, sql } from "drizzle-orm";
import type { Executor } from "../../db/client";
import { orders, tickets, users } from "../../db/schema";
import { badRequest, notFound, unauthorized } from "../../errors";
import { enqueueMail } from "../../mail/outbox";
import { accountChangedMail } from "../../mail/templates";
import { centsToUsd } from "../../../contract/money";
import { PAID_ORDER_STATUSES } from "../../../contract/order";
import type { AccountProfile } from "../../../contract/answers/user";
import { hashPassword, verifyPassword } from "./passwords";
import { forgetAllDevices } from "./known-devices";
import { RATE_RULES, hitRateLimit } from "../guards/rate-limit";
import { type SessionUser, createSession, revokeAllSessions } from "./sessions";
import {
  type AccountContext,
  assertAvailable,
  assertPasswordAcceptable,
  conflictFromUniqueViolation,
} from "./accounts";

/* A person's own account: what it shows, and changing the username, email or password. */

const WRONG_CURRENT_PASSWORD = "Your current password is not correct";
/** How long after signing in a session may change the email or password without the current password. */
export const REAUTHENTICATION_WINDOW_MS = 10 * 60_000;
export const CURRENT_PASSWORD_NEEDED =
  "Please enter your current password, or sign in again: you signed in more than 10 minutes ago";

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
  ctx: AccountContext,
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

export async function updateUsername(ctx: AccountContext, userId: string, username: string): Promise<void> {
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
  ctx: AccountContext,
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
  ctx: AccountContext,
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
