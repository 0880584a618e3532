import { type InvalidLineReason, STOCK_LINE_MAX_LENGTH } from "../../../contract/stock";

/*
 * Reading pasted or uploaded stock (ADR 025). One credential per line as `username:password`, split at
 * the first ':' so a password may hold more of them. Blank lines and a bare ':' are skipped, as the spec
 * skips them among delivered credentials; any other line that does not read as one credential is
 * reported by its number and never guessed at (split on spaces, say), so one line is one credential or none.
 */

export type StockLine = { line: number; username: string; password: string };
export type InvalidLine = { line: number; reason: InvalidLineReason };
export type ParsedStock = { credentials: StockLine[]; invalid: InvalidLine[]; skipped: number };

// eslint-disable-next-line no-control-regex -- finding control characters (tab included) is the point
const CONTROL_CHARACTER = /[\u0000-\u001F\u007F-\u009F]/;
/**
 * A Unicode line or paragraph separator is not a line break here (only CR and LF are), and it is looked for
 * before trimming: JavaScript's trim() takes it off a line's ends, which would make `user:pass\u2028` a valid line.
 */
const SEPARATOR = /[\u2028\u2029]/;

/** One line as a credential, a reason it is not one, or null for a line to skip. */
function readLine(raw: string): { username: string; password: string } | InvalidLineReason | null {
  const trimmed = raw.trim();
  if (trimmed === "" || trimmed === ":") return null;
  if (trimmed.length > STOCK_LINE_MAX_LENGTH) return "tooLong";
  if (CONTROL_CHARACTER.test(trimmed) || SEPARATOR.test(raw)) return "badCharacter";
  const colon = trimmed.indexOf(":");
  if (colon === -1) return "noColon";
  const username = trimmed.slice(0, colon).trim();
  const password = trimmed.slice(colon + 1).trim();
  if (!username) return "noUsername";
  if (!password) return "noPassword";
  return { username, password };
}

export function parseStockLines(text: string): ParsedStock {
  const parsed: ParsedStock = { credentials: [], invalid: [], skipped: 0 };
  // A byte-order mark (Windows Notepad writes one) is not part of the first username.
  const lines = text.replace(/^\uFEFF/, "").split(/\r\n|\r|\n/);
  // A final line break does not make one more blank line.
  if (lines.length > 1 && lines.at(-1) === "") lines.pop();
  lines.forEach((raw, index) => {
    const line = index + 1;
    const read = readLine(raw);
    if (read === null) parsed.skipped++;
    else if (typeof read === "string") parsed.invalid.push({ line, reason: read });
    else parsed.credentials.push({ line, ...read });
  });
  return parsed;
}
