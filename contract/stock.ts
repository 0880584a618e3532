import { z } from "zod";
import { optionalText } from "./account";

/*
 * The back office's stock rules (ADR 025): limits the API enforces and the stock forms show.
 * One credential per line as `username:password`; an account with N seats is sold to N buyers.
 */

/** An upload, or pasted text, of at most 5 MB. */
export const STOCK_IMPORT_MAX_BYTES = 5 * 1024 * 1024;
/** Seat rows one import may add (lines × the option's seats): one transaction stays short. */
export const STOCK_IMPORT_MAX_ROWS = 200_000;
/** A longer line is refused as invalid: no username or password is that long. */
export const STOCK_LINE_MAX_LENGTH = 512;
export const BATCH_LABEL_MAX_LENGTH = 100;
export const STOCK_PAGE_SIZE = 50;
/** Line numbers an import answer lists per kind (the counts are always complete). */
export const STOCK_REPORT_MAX_LINES = 1000;
/** Accounts one removal may name (a page's worth, with room). */
export const STOCK_REMOVE_MAX_ACCOUNTS = 200;

export const STOCK_STATES = ["available", "reserved", "delivered", "replaced"] as const;
export type StockState = (typeof STOCK_STATES)[number];

/** Why a line was not imported; the pages say each in words. */
export const INVALID_LINE_REASONS = ["noColon", "noUsername", "noPassword", "tooLong", "badCharacter"] as const;
export type InvalidLineReason = (typeof INVALID_LINE_REASONS)[number];

export const INVALID_LINE_MESSAGES: Record<InvalidLineReason, string> = {
  noColon: "no ':' between username and password",
  noUsername: "no username before the ':'",
  noPassword: "no password after the ':'",
  tooLong: `longer than ${STOCK_LINE_MAX_LENGTH} characters`,
  badCharacter: "holds a tab, another control character or a Unicode line separator",
};

export const stockTextField = z
  .string({ invalid_type_error: "Paste the credentials as text" })
  .max(STOCK_IMPORT_MAX_BYTES, "At most 5 MB at a time: split the list");

export const batchLabelField = optionalText(
  "The label is text",
  BATCH_LABEL_MAX_LENGTH,
  `The label is at most ${BATCH_LABEL_MAX_LENGTH} characters`,
);
