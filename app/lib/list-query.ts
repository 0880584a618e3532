import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";

/*
 * A back-office list's state lives in its address (search, page, filters), so a list is a plain GET form that
 * works without JavaScript and can be bookmarked. `listQuery` reads it with a zod schema whose every field has a
 * default (`.default` or `.catch`, as the helpers below): a value the schema refuses (a hand-edited address, an old
 * link) reads as that default, never as a 500.
 */

/** Free text: trimmed and cut to `max` characters; missing is "". */
export const listText = (max = 200) =>
  z
    .string()
    .default("")
    .transform((text) => text.trim().slice(0, max));

/** One of `values`; anything else is `fallback` ("" unless given: no filter). */
export const listChoice = <T extends string, F extends string = "">(values: readonly T[], fallback = "" as F) =>
  z
    .custom<T | F>((value) => typeof value === "string" && (values as readonly string[]).includes(value))
    .catch(fallback);

/** A public id (an option, a batch); anything else is "" (no filter). */
export const listId = () => z.string().trim().regex(PUBLIC_ID_PATTERN).catch("");

type ListShape = Record<string, z.ZodTypeAny>;
export type ListQuery<Shape extends ListShape> = { [Name in keyof Shape]: z.output<Shape[Name]> } & { page: number };

/** The list's state from `url`: each field as its schema reads it, or its default; and the page. */
export function listQuery<Shape extends ListShape>(url: URL, schema: z.ZodObject<Shape>): ListQuery<Shape> {
  const query: Record<string, unknown> = { page: pageFrom(url) };
  for (const [name, field] of Object.entries(schema.shape)) {
    const asked = field.safeParse(url.searchParams.get(name) ?? undefined);
    query[name] = asked.success ? asked.data : field.parse(undefined);
  }
  return query as ListQuery<Shape>;
}

/** A page number from the address: a whole number from 1, anything else is page 1. */
export function pageFrom(url: URL): number {
  return Math.min(Math.max(1, Math.trunc(Number(url.searchParams.get("page"))) || 1), 100_000);
}

/** `path` with `values` as its query; empty values and page 1 are left out (everyone's default). */
export function withQuery(path: string, values: Record<string, string | number>): string {
  const query = new URLSearchParams();
  for (const [name, value] of Object.entries(values)) {
    if (value !== "" && !(name === "page" && value === 1)) query.set(name, String(value));
  }
  return query.size ? `${path}?${query}` : path;
}

/** The address of `page` with the list's other parameters kept. */
export function pageHref(pathname: string, params: Record<string, string | number>, page: number): string {
  return withQuery(pathname, { ...params, page });
}
