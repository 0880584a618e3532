import { z } from "@hono/zod-openapi";
import type { Context } from "hono";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import type { StaffArea } from "../../../contract/staff";
import type { ApiEnv } from "../../context";
import { notFound } from "../../errors";
import { type StaffRouteOptions, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, type DeclaredRoute, UNAUTHORIZED, declareRoute } from "../../openapi";

/*
 * What every /v1/admin route module declares the same way: the back office's tag, the staff check, the
 * failures every admin route can answer, the list query fields and the 404 of a malformed id.
 */

const ADMIN = ["Back office"];

export const STAFF_ONLY = { 403: "the account's role does not reach this part of the back office" };
/** What any admin route can answer besides its own failures. */
export const STAFF_FAILURES = { ...UNAUTHORIZED, ...STAFF_ONLY };
/** The same, for a route that takes input. */
export const FAILURES = { ...BAD_INPUT, ...STAFF_FAILURES };

/** One /v1/admin route, for the staff whose role reaches `area` (401 and 403 before validation). */
export function adminRoute<P extends string, R extends DeclaredRoute & { path: P }>(
  area: StaffArea,
  route: R,
  options: StaffRouteOptions = {},
) {
  return declareRoute(ADMIN, route, staffRoute(area, options));
}

/** After a catalogue change: this process's shop reads the catalogue again. */
export function catalogueChanged(c: Context<ApiEnv>) {
  c.get("snapshots").clear();
}

/** A malformed id names no row: it answers the same 404 as an unknown one. */
export function idOf(id: string, message: string): string {
  if (!PUBLIC_ID_PATTERN.test(id)) throw notFound(message);
  return id;
}

/** `?page=`, from 1. */
export const pageField = z.coerce
  .number()
  .int("Page must be a whole number")
  .min(1, "Page starts at 1")
  .max(100_000)
  .default(1)
  .openapi({ param: { name: "page", in: "query" } });

/** A trimmed text of the query, "" when absent. */
function queryText(name: string, tooLong: string, description?: string, maxLength = 200) {
  return z
    .string()
    .trim()
    .max(maxLength, tooLong)
    .default("")
    .openapi({ param: { name, in: "query" }, ...(description === undefined ? {} : { description }) });
}

/** `?search=`; `description` says what it matches. */
export const searchField = (description?: string) => queryText("search", "Search is too long", description);

/** One filter of a list (`?actor=`, `?email=`…). */
export const filterField = (name: string, description: string, maxLength?: number) =>
  queryText(name, "Filter is too long", description, maxLength);
