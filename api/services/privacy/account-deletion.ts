import { randomBytes } from "node:crypto";
import { readdir, rm } from "node:fs/promises";
import path from "node:path";
import { and, eq, isNull, notExists, sql } from "drizzle-orm";
import { centsToUsd } from "../../../contract/money";
import type { DeletedAccount } from "../../../contract/answers/privacy";
import { DELETED_CUSTOMER, PRIVACY_MESSAGES } from "../../../contract/privacy";
import type { Config } from "../../config";
import type { Database } from "../../db/client";
import {
  carts,
  coupons,
  idempotencyKeys,
  knownDevices,
  mailOutbox,
  orders,
  passwordResets,
  recoveryCodes,
  sessions,
  signInChallenges,
  spinAccounts,
  spins,
  tickets,
  users,
} from "../../db/schema";
import { badRequest, conflict, forbidden, notFound } from "../../errors";
import { outboxFolder } from "../../mail/transport";
import { type StaffActor, recordAudit } from "../staff/audit";
import { debitBalance } from "../payments/balance";
import { verifyPassword } from "../accounts/passwords";
import { RATE_RULES, hitRateLimit } from "../guards/rate-limit";

/*
 * Deleting a customer's account (issue 29, ADR 044), by the person or by staff at their request; the export is
 * data-export.ts. Deleting keeps the users row as a tombstone (orders, the ledger and staff's records point at
 * it) with no name, address or password; the person's sessions, devices, codes, cart and unused prizes go;
 * orders stay for the books without the address, message or client address; feedback, ticket messages and
 * requests stay, shown as from DELETED_CUSTOMER; a remaining balance is forfeited with a ledger entry saying
 * so. All in one transaction.
 */

const FORFEIT_NOTE = "Forfeited: account deleted";

/** The name and address a deleted account keeps: unique, and matching no one's sign-in or sign-up. */
function tombstone(): string {
  return `deleted-${randomBytes(12).toString("hex")}`;
}

type Deletion = { db: Database; config: Config; now?: Date };

/**
 * Removes the person behind `userId` from the store, in one transaction (ADR 044). The row is locked first, so
 * two deletions (or a deletion and a staff change) take turns; a sign-in that checked the password just before
 * gets a session no request accepts, as tokens of a deleted account are refused where they are resolved.
 */
async function eraseAccount(
  ctx: Deletion,
  userId: string,
  audit?: { actor: StaffActor; reason: string },
): Promise<DeletedAccount> {
  const now = ctx.now ?? new Date();
  const { result, mailIds } = await ctx.db.transaction(async (tx) => {
    const [account] = await tx.select().from(users).where(eq(users.id, userId)).for("update");
    if (!account) throw notFound("No customer has this id");
    if (account.deletedAt) throw conflict(PRIVACY_MESSAGES.alreadyDeleted);
    if (account.role !== "customer") throw forbidden(PRIVACY_MESSAGES.staffAccount);

    const forfeitedCents = account.balanceCents;
    if (forfeitedCents > 0) await debitBalance(tx, userId, forfeitedCents, { note: FORFEIT_NOTE, now });

    const name = tombstone();
    await tx
      .update(users)
      .set({
        username: name,
        email: name,
        passwordHash: "",
        autoCreated: false,
        totpSecret: null,
        totpEnabledAt: null,
        totpLastStep: null,
        blockReason: "",
        deletedAt: now,
        updatedAt: now,
      })
      .where(eq(users.id, userId));
    // Revoked by removal: no token, device, code or challenge of the person is left to match.
    await tx.delete(sessions).where(eq(sessions.userId, userId));
    await tx.delete(knownDevices).where(eq(knownDevices.userId, userId));
    await tx.delete(passwordResets).where(eq(passwordResets.userId, userId));
    await tx.delete(recoveryCodes).where(eq(recoveryCodes.userId, userId));
    await tx.delete(signInChallenges).where(eq(signInChallenges.userId, userId));
    await tx.delete(carts).where(eq(carts.userId, userId));
    await tx.delete(spinAccounts).where(eq(spinAccounts.userId, userId));
    await tx.delete(spins).where(eq(spins.userId, userId));
    // Prizes never used go; one an order used stays, as the order names it.
    await tx
      .delete(coupons)
      .where(
        and(
          eq(coupons.userId, userId),
          notExists(tx.select({ id: orders.id }).from(orders).where(eq(orders.couponId, coupons.id))),
        ),
      );
    await tx.delete(idempotencyKeys).where(eq(idempotencyKeys.scope, `user:${userId}`));
    // The orders stay for the books, without the address, the message to staff or the client's address.
    await tx.update(orders).set({ email: "", message: "", clientIp: null }).where(eq(orders.userId, userId));
    // A guest ticket from the same address is the same person's.
    await tx.delete(tickets).where(sql`lower(${tickets.guestEmail}) = lower(${account.email})`);
    const mails = await tx
      .delete(mailOutbox)
      .where(sql`lower(${mailOutbox.to}) = lower(${account.email})`)
      .returning({ id: mailOutbox.id });
    await tx.execute(sql`select audit_log_forget(${userId}, array[${account.email}, ${account.username}]::text[])`);
    if (audit) {
      // Neither the name nor the address: the entry names the account by its id, and the reason staff gave.
      await recordAudit(tx, audit.actor, {
        action: "customer.delete",
        objectType: "user",
        objectId: userId,
        objectLabel: DELETED_CUSTOMER,
        after: { reason: audit.reason, forfeited: `$${centsToUsd(forfeitedCents).toFixed(2)}` },
      });
    }
    return {
      result: { _id: userId, deletedAt: now.toISOString(), forfeited: centsToUsd(forfeitedCents) },
      mailIds: mails.map((mail) => mail.id),
    };
  });
  await removeMailFiles(ctx.config, mailIds);
  return result;
}

/** The .eml copies (no SMTP_URL) of the person's mails: named by time and the mail's id (api/mail/transport.ts). */
async function removeMailFiles(config: Config, mailIds: string[]): Promise<void> {
  if (mailIds.length === 0 || config.smtpUrl) return;
  const folder = outboxFolder(config);
  const names = await readdir(folder).catch(() => [] as string[]);
  const ids = new Set(mailIds);
  await Promise.all(
    names
      .filter((name) => ids.has(name.replace(/\.eml$/, "").slice(-22)))
      .map((name) => rm(path.join(folder, name), { force: true })),
  );
}

/** The customer's own deletion: the password, checked (and rate limited as any re-authentication), then erasure. */
export async function deleteOwnAccount(
  ctx: Deletion & { ip: string },
  user: { id: string; role: string },
  password: string,
): Promise<DeletedAccount> {
  if (user.role !== "customer") throw forbidden(PRIVACY_MESSAGES.staffAccount);
  await hitRateLimit(ctx.db, RATE_RULES.reauthPerAccount, user.id, {
    now: ctx.now,
    scale: ctx.config.rateLimitScale,
  });
  const [account] = await ctx.db
    .select({ passwordHash: users.passwordHash })
    .from(users)
    .where(and(eq(users.id, user.id), isNull(users.deletedAt)));
  if (!account || !(await verifyPassword(account.passwordHash, password))) {
    throw badRequest(PRIVACY_MESSAGES.wrongPassword, { password: [PRIVACY_MESSAGES.wrongPassword] });
  }
  return eraseAccount(ctx, user.id);
}

/** Staff deleting a customer at the customer's request: never their own account, never a staff account. */
export async function deleteCustomerForStaff(
  ctx: Deletion,
  actor: StaffActor,
  input: { userId: string; reason: string },
): Promise<DeletedAccount> {
  if (input.userId === actor.userId) throw forbidden(PRIVACY_MESSAGES.ownAccount);
  return eraseAccount(ctx, input.userId, { actor, reason: input.reason });
}
