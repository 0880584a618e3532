import { type SQL, and, eq, ilike, or } from "drizzle-orm";
import { AUDIT_PAGE_SIZE } from "../../../contract/staff";
import type { Executor } from "../../db/client";
import { auditLog } from "../../db/schema";
import type { AuditEntry, AuditPage } from "../../../contract/answers/admin-staff";
import { containsPattern, newestFirst, readRecordsPage } from "../shared/paging";

/*
 * The audit log (ADR 023): each staff change writes one entry in the change's own transaction, so a
 * change without its entry (or an entry without its change) cannot happen. Entries carry only the
 * fields that changed, before and after; secrets (passwords, credentials) are never put in them.
 */

/**
 * Who made a change, from where: the staff member's session, or the command line. `sessionId` is the
 * session the change came through, kept when a change signs other sessions out (ADR 035).
 */
export type StaffActor = { userId: string | null; email: string; role: string; ip: string; sessionId?: string };

/** A field's value as the log shows it. */
type Shown = string | number | boolean | null | string[];
type Fields = Record<string, Shown | undefined>;

export type AuditEntryInput = {
  action: string;
  objectType: string;
  objectId: string;
  objectLabel?: string;
  /** The object's fields before the change (omit for a creation). */
  before?: Fields;
  /** The object's fields after the change (omit for a deletion). */
  after?: Fields;
};

const same = (a: Shown | undefined, b: Shown | undefined) => JSON.stringify(a ?? null) === JSON.stringify(b ?? null);

/** Only the fields whose value changed, on both sides; a creation or deletion keeps its whole side. */
export function changedFields(before: Fields | undefined, after: Fields | undefined) {
  if (!before || !after) return { before: before ?? null, after: after ?? null };
  const keys = [...new Set([...Object.keys(before), ...Object.keys(after)])].filter(
    (key) => !same(before[key], after[key]),
  );
  return {
    before: Object.fromEntries(keys.map((key) => [key, before[key] ?? null])),
    after: Object.fromEntries(keys.map((key) => [key, after[key] ?? null])),
  };
}

export async function recordAudit(db: Executor, actor: StaffActor, entry: AuditEntryInput): Promise<void> {
  await db.insert(auditLog).values({
    actorUserId: actor.userId,
    actorEmail: actor.email,
    actorRole: actor.role,
    action: entry.action,
    objectType: entry.objectType,
    objectId: entry.objectId,
    objectLabel: (entry.objectLabel ?? "").slice(0, 200),
    changes: changedFields(entry.before, entry.after),
    ip: actor.ip.slice(0, 64),
  });
}

/** A maker of entries on rows the log shows by their email: orders and accounts. */
function auditByEmail(objectType: "order" | "user") {
  return (
    db: Executor,
    actor: StaffActor,
    row: { id: string; email: string },
    action: string,
    changes: Pick<AuditEntryInput, "before" | "after">,
  ): Promise<void> =>
    recordAudit(db, actor, { action, objectType, objectId: row.id, objectLabel: row.email, ...changes });
}

/** The entry of a staff action on an order, which the log shows by the order's email. */
export const auditOrder = auditByEmail("order");
/** The entry of a staff action on an account, which the log shows by the account's email. */
export const auditAccount = auditByEmail("user");

export type AuditQuery = { page: number; actor: string; action: string; objectType: string; objectId: string };

/** Newest first, AUDIT_PAGE_SIZE a page; `actor` matches part of the email, `action` part of the action. */
export async function listAudit(db: Executor, query: AuditQuery): Promise<AuditPage> {
  const filters: SQL[] = [];
  if (query.actor) filters.push(ilike(auditLog.actorEmail, containsPattern(query.actor)));
  if (query.action) filters.push(ilike(auditLog.action, containsPattern(query.action)));
  if (query.objectType) filters.push(eq(auditLog.objectType, query.objectType));
  if (query.objectId) {
    filters.push(
      or(eq(auditLog.objectId, query.objectId), ilike(auditLog.objectLabel, containsPattern(query.objectId)))!,
    );
  }
  return readRecordsPage(
    db,
    db.select().from(auditLog).$dynamic(),
    {
      counted: auditLog,
      where: filters.length ? and(...filters) : undefined,
      orderBy: newestFirst(auditLog),
      page: query.page,
      pageSize: AUDIT_PAGE_SIZE,
    },
    (row) => ({
      _id: row.id,
      actorEmail: row.actorEmail,
      actorRole: row.actorRole,
      action: row.action,
      objectType: row.objectType,
      objectId: row.objectId,
      objectLabel: row.objectLabel,
      changes: row.changes as AuditEntry["changes"],
      ip: row.ip,
      createdAt: row.createdAt.toISOString(),
    }),
  );
}
