import { and, asc, count, eq, ne, sql } from "drizzle-orm";
import type { Role } from "../../../contract/staff";
import type { StaffMember } from "../../../contract/answers/admin-staff";
import type { Executor } from "../../db/client";
import { users } from "../../db/schema";
import { USERNAME_CHARACTERS, USERNAME_MAX_LENGTH } from "../../../contract/account";
import { badRequest, conflict, notFound } from "../../errors";
import { type StaffActor, recordAudit, auditAccount } from "./audit";
import { insertAccount } from "../accounts/accounts";
import { hashPassword, passwordProblem } from "../accounts/passwords";
import { revokeAllSessions } from "../accounts/sessions";

/*
 * Staff accounts (ADR 023). Staff are ordinary accounts with a role; they sign in through the same
 * form. The store always keeps at least one owner: the last one cannot be demoted.
 */

export const STAFF_MESSAGES = {
  noAccount: "No account has this email. The person must sign up first.",
  lastOwner: "The store needs at least one owner. Make someone else owner first.",
} as const;

const byEmail = (email: string) => sql`lower(${users.email}) = lower(${email})`;

export async function listStaff(db: Executor): Promise<StaffMember[]> {
  const rows = await db
    .select({
      id: users.id,
      username: users.username,
      email: users.email,
      role: users.role,
      createdAt: users.createdAt,
      totpEnabledAt: users.totpEnabledAt,
    })
    .from(users)
    .where(ne(users.role, "customer"))
    .orderBy(asc(users.email));
  return rows.map(memberOf);
}

/**
 * Gives the account with this email a role (customer takes staff access away). The owners' rows
 * are locked first, so two owners demoting each other at once cannot leave the store with none.
 * The account's sessions end (but the one making the change): each signs in again in its new role.
 */
export async function setRole(
  db: Executor,
  actor: StaffActor,
  input: { email: string; role: Role },
): Promise<StaffMember> {
  return db.transaction(async (tx) => {
    await tx.select({ id: users.id }).from(users).where(eq(users.role, "owner")).orderBy(asc(users.id)).for("update");
    const [account] = await tx.select().from(users).where(byEmail(input.email)).for("update");
    if (!account) throw notFound(STAFF_MESSAGES.noAccount);
    if (account.role === input.role) return memberOf(account);
    if (account.role === "owner") {
      const [{ owners }] = await tx
        .select({ owners: count() })
        .from(users)
        .where(and(eq(users.role, "owner"), ne(users.id, account.id)));
      if (Number(owners) === 0) throw conflict(STAFF_MESSAGES.lastOwner);
    }
    const [updated] = await tx
      .update(users)
      .set({ role: input.role, updatedAt: new Date() })
      .where(eq(users.id, account.id))
      .returning();
    await revokeAllSessions(tx, account.id, { keep: actor.sessionId });
    await auditAccount(tx, actor, account, "staff.role", {
      before: { role: account.role },
      after: { role: input.role },
    });
    return memberOf(updated);
  });
}

/** A staff account as the back office lists it. */
export function memberOf(
  row: Pick<typeof users.$inferSelect, "id" | "username" | "email" | "role" | "createdAt" | "totpEnabledAt">,
): StaffMember {
  return {
    _id: row.id,
    username: row.username,
    email: row.email,
    role: row.role,
    created: row.createdAt.toISOString(),
    twoFactor: row.totpEnabledAt != null,
  };
}

/**
 * `npm run admin:create`: a new owner account with this email and password, or the existing
 * account with this email made owner (its password is left as it is).
 */
export async function createOrPromoteOwner(
  db: Executor,
  input: { email: string; password: string },
): Promise<{ created: boolean; userId: string }> {
  const actor: StaffActor = { userId: null, email: "command line (admin:create)", role: "owner", ip: "local" };
  const [existing] = await db.select().from(users).where(byEmail(input.email));
  if (existing) {
    await setRole(db, actor, { email: input.email, role: "owner" });
    return { created: false, userId: existing.id };
  }
  // As for a guest checkout's account, the email is the username too.
  if (input.email.length > USERNAME_MAX_LENGTH || !USERNAME_CHARACTERS.test(input.email)) {
    throw badRequest("This email address cannot be used for an account.", { email: ["Use another email address"] });
  }
  const problem = passwordProblem(input.password, { username: input.email, email: input.email });
  if (problem) throw badRequest(problem, { password: [problem] });
  const passwordHash = await hashPassword(input.password);
  return db.transaction(async (tx) => {
    const now = new Date();
    const userId = await insertAccount(
      tx,
      { username: input.email, email: input.email, passwordHash, autoCreated: false },
      now,
    );
    await tx.update(users).set({ role: "owner" }).where(eq(users.id, userId));
    await recordAudit(tx, actor, {
      action: "staff.create",
      objectType: "user",
      objectId: userId,
      objectLabel: input.email,
      after: { role: "owner" },
    });
    return { created: true, userId };
  });
}
