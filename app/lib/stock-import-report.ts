import type { ImportReport } from "../../contract/answers/admin-stock";
import { BATCH_LABEL_MAX_LENGTH, INVALID_LINE_REASONS, type InvalidLineReason } from "../../contract/stock";

/** Line numbers an import's report carries in the address, per kind (the counts are complete). */
const REPORT_LINES_SHOWN = 50;

/*
 * The import's result survives the redirect in the address (counts and line numbers, never a credential),
 * so it stays on the page, with or without JavaScript, until the next search or import.
 */
export function reportSearch(report: ImportReport): URLSearchParams {
  return new URLSearchParams({
    added: String(report.added),
    seats: String(report.seats),
    duplicates: String(report.duplicate.count),
    duplicateLines: report.duplicate.lines.slice(0, REPORT_LINES_SHOWN).join(","),
    invalid: String(report.invalid.count),
    invalidLines: report.invalid.lines
      .slice(0, REPORT_LINES_SHOWN)
      .map(({ line, reason }) => `${line}-${reason}`)
      .join(","),
    filled: String(report.replacementsFilled),
    label: report.batchLabel,
  });
}

export const REPORT_PARAMS = [
  "added",
  "seats",
  "duplicates",
  "duplicateLines",
  "invalid",
  "invalidLines",
  "filled",
  "label",
];

export type ShownReport = {
  added: number;
  seats: number;
  duplicates: number;
  duplicateLines: number[];
  invalid: number;
  invalidLines: { line: number; reason: InvalidLineReason }[];
  filled: number;
  label: string;
};

export function reportFrom(url: URL): ShownReport | null {
  const get = (name: string) => url.searchParams.get(name);
  const count = (name: string) => Math.max(0, Math.trunc(Number(get(name))) || 0);
  if (get("added") === null) return null;
  const lineNumbers = (name: string) =>
    (get(name) ?? "")
      .split(",")
      .map(Number)
      .filter((line) => Number.isInteger(line) && line > 0)
      .slice(0, REPORT_LINES_SHOWN);
  const invalidLines = (get("invalidLines") ?? "")
    .split(",")
    .map((item) => item.split("-"))
    .filter(([line, reason]) => Number(line) > 0 && (INVALID_LINE_REASONS as readonly string[]).includes(reason))
    .map(([line, reason]) => ({ line: Number(line), reason: reason as InvalidLineReason }))
    .slice(0, REPORT_LINES_SHOWN);
  return {
    added: count("added"),
    seats: count("seats"),
    duplicates: count("duplicates"),
    duplicateLines: lineNumbers("duplicateLines"),
    invalid: count("invalid"),
    invalidLines,
    filled: count("filled"),
    label: (get("label") ?? "").slice(0, BATCH_LABEL_MAX_LENGTH),
  };
}
