import type { Pager } from "../../contract/answers/common";

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
