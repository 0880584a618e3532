import { z } from "zod";
import { PUBLIC_ID_PATTERN } from "../browser/ids";
import { FULFIL_MODES } from "../admin-catalogue";

/*
 * Answer schemas: what each /v1 route answers, declared once. The route declares it (the OpenAPI document is
 * generated from it, and its handler's answer is typed by it), the page client in app/lib reads its types, and
 * the API tests check every answer against it. Only server code imports these modules (the browser never
 * parses an answer), so they stay out of the page bundles.
 */

/** The pager of every paged list (api/services/shared/paging.ts computes it; the pages draw it). */
export const pagerSchema = z.object({
  page: z.number().int(),
  previous: z.number().int().nullable(),
  next: z.number().int().nullable(),
  total: z.number().int(),
  pages: z.number().int(),
});
export type Pager = z.infer<typeof pagerSchema>;

/** One page of a paged list: its records, and the pager. */
export const pageOf = <R extends z.ZodTypeAny>(record: R) => z.object({ records: z.array(record), pager: pagerSchema });

/** A record of an answer: its id, then its own fields. */
export const withId = <S extends z.ZodRawShape>(fields: S) => z.object({ _id: z.string(), ...fields });

/** An amount of money: USD with at most two decimals. */
export const usdSchema = z.number().describe("USD, at most two decimals");

/** A moment, as ISO 8601 text. */
export const isoDateSchema = z.string().describe("ISO 8601");

/** A row's public id: 22 base64url characters. */
export const publicIdSchema = z.string().regex(PUBLIC_ID_PATTERN).describe("a 22-character id");

/** The payload of an answer that carries none: its message says what happened. */
export const noPayloadSchema = z.null();

/** How a product is delivered: `auto` from stock at payment, `manual` by staff. */
export const fulfilModeSchema = z.enum(FULFIL_MODES).describe("`auto`: from stock at payment; `manual`: by staff");
