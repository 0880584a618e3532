import { type SQL, eq, ilike, or, sql } from "drizzle-orm";
import { BLOCKLIST_PAGE_SIZE } from "../../../contract/admin-customers";
import type { BlocklistAdded, BlocklistPage } from "../../../contract/answers/admin-customers";
import type { Database, Executor } from "../../db/client";
import { emailBlocklist, users } from "../../db/schema";
import { AppError, notFound } from "../../errors";
import { brokenUniqueIndex } from "../accounts/accounts";
import { type StaffActor, recordAudit } from "../staff/audit";
import { containsPattern, newestFirst, readRecordsPage } from "../shared/paging";

/*
 * The checkout blocklist (ADR 026): exact addresses and `*` patterns refused at checkout, top-ups and
 * redeem keys (blocks.ts applies them). Staff list, add and remove entries; each change is audited.
 */

export const BLOCKLIST_MESSAGES = {
  duplicate: "This address or pattern is already on the blocklist",
  notFound: "This blocklist entry does not exist (it may have been removed already)",
} as const;

const duplicate = () => new AppError(409, BLOCKLIST_MESSAGES.duplicate, { pattern: [BLOCKLIST_MESSAGES.duplicate] });

/** Newest first; `search` matches part of the pattern or of the note. */
export async function listBlocklist(db: Executor, query: { page: number; search: string }): Promise<BlocklistPage> {
  let where: SQL | undefined;
  if (query.search) {
    const pattern = containsPattern(query.search);
    where = or(ilike(emailBlocklist.pattern, pattern), ilike(emailBlocklist.note, pattern));
  }
  return readRecordsPage(
    db,
    db
      .select({
        id: emailBlocklist.id,
        pattern: emailBlocklist.pattern,
        note: emailBlocklist.note,
        createdAt: emailBlocklist.createdAt,
        createdBy: users.email,
      })
      .from(emailBlocklist)
      .leftJoin(users, eq(users.id, emailBlocklist.createdBy))
      .$dynamic(),
    {
      counted: emailBlocklist,
      where,
      orderBy: newestFirst(emailBlocklist),
      page: query.page,
      pageSize: BLOCKLIST_PAGE_SIZE,
    },
    (row) => ({
      _id: row.id,
      pattern: row.pattern,
      note: row.note,
      createdBy: row.createdBy,
      createdAt: row.createdAt.toISOString(),
    }),
  );
}

/** Adds an entry (the pattern already checked and lower-cased by its schema); the same one twice is a 409. */
export async function addBlocklistEntry(
  db: Database,
  actor: StaffActor,
  input: { pattern: string; note: string },
): Promise<BlocklistAdded> {
  try {
    return await db.transaction(async (tx) => {
      const [taken] = await tx
        .select({ id: emailBlocklist.id })
        .from(emailBlocklist)
        .where(sql`lower(${emailBlocklist.pattern}) = lower(${input.pattern})`);
      if (taken) throw duplicate();
      const [entry] = await tx
        .insert(emailBlocklist)
        .values({ pattern: input.pattern, note: input.note, createdBy: actor.userId })
        .returning({ id: emailBlocklist.id });
      await recordAudit(tx, actor, {
        action: "blocklist.add",
        objectType: "blocklist",
        objectId: entry.id,
        objectLabel: input.pattern,
        after: { pattern: input.pattern, note: input.note },
      });
      return { _id: entry.id, pattern: input.pattern };
    });
  } catch (error) {
    // Two staff adding the same pattern at once: the unique index decides, with the same answer.
    if (brokenUniqueIndex(error) === "email_blocklist_pattern_key") throw duplicate();
    throw error;
  }
}

export async function removeBlocklistEntry(db: Database, actor: StaffActor, entryId: string): Promise<string> {
  return db.transaction(async (tx) => {
    const [removed] = await tx.delete(emailBlocklist).where(eq(emailBlocklist.id, entryId)).returning();
    if (!removed) throw notFound(BLOCKLIST_MESSAGES.notFound);
    await recordAudit(tx, actor, {
      action: "blocklist.remove",
      objectType: "blocklist",
      objectId: removed.id,
      objectLabel: removed.pattern,
      before: { pattern: removed.pattern, note: removed.note },
    });
    return removed.pattern;
  });
}
