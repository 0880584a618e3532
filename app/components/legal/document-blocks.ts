export type DocumentBlock =
  { kind: "heading"; text: string } | { kind: "list"; items: string[] } | { kind: "paragraph"; text: string };

const MARKED_HEADING = /^#{1,6}\s+\S/;
const LIST_ITEM = /^[-*]\s+\S/;

/** A short line that does not end like a sentence reads as a title ("Payment and delivery"). */
function looksLikeHeading(line: string): boolean {
  return MARKED_HEADING.test(line) || (line.length <= 80 && !/[.,:;!?)]$/.test(line) && !LIST_ITEM.test(line));
}

function blocksOfParagraph(lines: string[]): DocumentBlock[] {
  if (lines.every((line) => LIST_ITEM.test(line))) {
    return [{ kind: "list", items: lines.map((line) => line.replace(/^[-*]\s+/, "")) }];
  }
  return [{ kind: "paragraph", text: lines.join(" ") }];
}

/**
 * Documents are plain text written in the admin, paragraphs separated by blank lines. A paragraph
 * may open with a title line ("What we collect" or "## What we collect"); lines that all start with
 * "- " form a list. Rendering them as React text (never as HTML) keeps an admin's text from
 * injecting markup. A first heading equal to the page title is dropped: the page shows it already.
 */
export function blocksOf(paragraphs: readonly string[], pageTitle: string): DocumentBlock[] {
  const blocks = paragraphs.flatMap((paragraph): DocumentBlock[] => {
    const lines = paragraph
      .split("\n")
      .map((line) => line.trim())
      .filter((line) => line !== "");
    const [first, ...rest] = lines;
    if (first === undefined) return [];
    if (!looksLikeHeading(first)) return blocksOfParagraph(lines);
    const heading: DocumentBlock = { kind: "heading", text: first.replace(/^#{1,6}\s+/, "") };
    return rest.length > 0 ? [heading, ...blocksOfParagraph(rest)] : [heading];
  });
  const [opening] = blocks;
  if (opening?.kind === "heading" && opening.text.toLowerCase() === pageTitle.toLowerCase()) blocks.shift();
  return blocks;
}

/**
 * The blocks without the sections the store writes itself under these titles (the privacy policy's retention and
 * rights, ADR 044): an editable copy of them (the demo's, or an operator's older text) could only repeat or
 * contradict what the store does (issue 38). A section runs from its heading to the next heading.
 */
export function withoutSections(blocks: readonly DocumentBlock[], titles: readonly string[]): DocumentBlock[] {
  const dropped = new Set(titles.map((title) => title.toLowerCase()));
  let dropping = false;
  return blocks.filter((block) => {
    if (block.kind === "heading") dropping = dropped.has(block.text.toLowerCase());
    return !dropping;
  });
}
