import { type AnyColumn, type SQL, count, desc, is } from "drizzle-orm";
import { type PgSelect, PgTable } from "drizzle-orm/pg-core";
import type { Pager } from "../../../contract/answers/common";
import type { Executor } from "../../db/client";

export type { Pager };

/** The pager every paged /v1 list answers with; pages start at 1, and a page past the end points back. */
export function pagerFor(page: number, total: number, pageSize: number): Pager {
  const pages = Math.max(1, Math.ceil(total / pageSize));
  return {
    page,
    previous: page > 1 ? Math.min(page - 1, pages) : null,
    next: page < pages ? page + 1 : null,
    total,
    pages,
  };
}

/** An ILIKE pattern that finds `text` anywhere, with the user's own % _ and \ taken literally. */
export function containsPattern(text: string): string {
  return `%${text.replace(/[\\%_]/g, (char) => `\\${char}`)}%`;
}

/** The order of most lists: newest first, the id breaking ties so a page never repeats a row. */
export function newestFirst(table: { createdAt: AnyColumn; id: AnyColumn }): SQL[] {
  return [desc(table.createdAt), desc(table.id)];
}

/** What one page of a list is read from: `counted` is the listed table, or `countRows(db)` over its joins. */
export type PageOf = {
  counted: PgTable | PgSelect;
  where: SQL | undefined;
  orderBy: SQL[];
  page: number;
  pageSize: number;
};

/** `select count(*)`, for a list whose count needs the joins its `where` reads. */
export const countRows = (db: Executor) => db.select({ total: count() });

/**
 * One page of a list: its pager, from how many rows `where` finds, then the page's rows, read by `select`
 * (a dynamic `select … from …`, with any joins) under the same `where`, in `orderBy` order.
 */
export async function readPage<Q extends PgSelect>(
  db: Executor,
  select: Q,
  list: PageOf,
): Promise<{ pager: Pager; rows: Awaited<Q> }> {
  const counting = is(list.counted, PgTable) ? countRows(db).from(list.counted).$dynamic() : list.counted;
  const [{ total }] = (await counting.where(list.where)) as { total: number }[];
  const rows = await select
    .where(list.where)
    .orderBy(...list.orderBy)
    .limit(list.pageSize)
    .offset((list.page - 1) * list.pageSize);
  return { pager: pagerFor(list.page, Number(total), list.pageSize), rows: rows as Awaited<Q> };
}

/** One page of a list as the /v1 answers it: each row of readPage turned into its record, with the pager. */
export async function readRecordsPage<Q extends PgSelect, R>(
  db: Executor,
  select: Q,
  list: PageOf,
  toRecord: (row: Awaited<Q>[number]) => R,
): Promise<{ records: R[]; pager: Pager }> {
  const { pager, rows } = await readPage(db, select, list);
  return { records: rows.map(toRecord), pager };
}
