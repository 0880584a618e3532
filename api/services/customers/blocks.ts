import { and, eq, isNotNull, sql } from "drizzle-orm";
import { ACCOUNT_BLOCKED, EMAIL_REFUSED } from "../../../contract/admin-customers";
import type { Executor } from "../../db/client";
import { emailBlocklist, users } from "../../db/schema";
import { AppError, forbidden } from "../../errors";

/*
 * What staff's blocks mean for the storefront (ADR 026). A blocked account cannot sign in, and its tokens
 * stop working where tokens are resolved (accounts/sessions.ts). An address on the blocklist, or a blocked
 * account's address, cannot order: checkout, top-ups and redeem keys call assertEmailMayOrder before
 * they write anything.
 */

/** Sign-in and password reset, once the password or code is right: a blocked account is told so. */
export async function assertAccountNotBlocked(db: Executor, userId: string): Promise<void> {
  const [blocked] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(eq(users.id, userId), isNotNull(users.blockedAt)));
  if (blocked) throw forbidden(ACCOUNT_BLOCKED);
}

/**
 * A blocklist pattern as a LIKE pattern: `*` is any text, and the `%`, `_` and `\` a pattern may hold
 * are taken literally. Patterns are stored in lower case.
 */
const likePattern = sql`replace(replace(replace(replace(${emailBlocklist.pattern}, '\\', '\\\\'), '%', '\\%'), '_', '\\_'), '*', '%')`;

/** Whether an address matches an entry of the blocklist (letter case ignored). */
export async function isEmailBlocklisted(db: Executor, email: string): Promise<boolean> {
  const [match] = await db
    .select({ id: emailBlocklist.id })
    .from(emailBlocklist)
    .where(sql`lower(${email.trim()}) like ${likePattern}`)
    .limit(1);
  return match !== undefined;
}

/** Refuses (403, filed under `email`) an address on the blocklist or of a blocked account. */
export async function assertEmailMayOrder(db: Executor, email: string): Promise<void> {
  const [blockedAccount] = await db
    .select({ id: users.id })
    .from(users)
    .where(and(sql`lower(${users.email}) = lower(${email.trim()})`, isNotNull(users.blockedAt)))
    .limit(1);
  if (blockedAccount || (await isEmailBlocklisted(db, email))) {
    throw new AppError(403, EMAIL_REFUSED, { email: [EMAIL_REFUSED] });
  }
}

/**
 * Whether the address of the `users` row of the enclosing query may not order (a select field). Its email is
 * named with its table: unqualified, it would be the blocked account's own inside the first subquery, and any
 * blocked account would refuse everybody.
 */
export const orderRefusalOfAccountEmail = () => {
  const email = sql`${sql.identifier("users")}.${sql.identifier(users.email.name)}`;
  return sql<boolean>`(exists (
      select 1 from ${users} as blocked
      where lower(blocked.email) = lower(${email}) and blocked.blocked_at is not null
    ) or exists (
      select 1 from ${emailBlocklist} where lower(btrim(${email})) like ${likePattern}
    ))`;
};
