/*
 * A document carries only the stylesheet rules its own markup uses (issue 40). The production stylesheet is inline
 * (ADR 033: no round trip before the first paint), but whole it is 49 KB on every page, more than /shop's cards;
 * a page uses a fifth of its utility rules. The theme, the base rules and the site's own rules stay whole; a
 * utility rule stays when its class is on an element of the page. With JavaScript, InlineStyles links the
 * whole file after hydration, for what the page shows later (a dialog, the cart panel, another page).
 */

type Block = { text: string; utility?: string; children?: Block[] };

/** `css` cut into its blocks at one depth: `selector{...}`, `@rule{...}` or a statement ending in `;`. */
function blocksOf(css: string): string[] {
  const blocks: string[] = [];
  let depth = 0;
  let start = 0;
  for (let index = 0; index < css.length; index++) {
    const character = css[index];
    if (character === "{") depth++;
    else if (character === "}" && --depth === 0) {
      blocks.push(css.slice(start, index + 1));
      start = index + 1;
    } else if (character === ";" && depth === 0) {
      blocks.push(css.slice(start, index + 1));
      start = index + 1;
    }
  }
  if (start < css.length && css.slice(start).trim()) blocks.push(css.slice(start));
  return blocks;
}

/** The class a utility rule styles, as written in markup: `.sm\:p-4{...}` is `sm:p-4`. */
function utilityClassOf(rule: string): string | undefined {
  const selector = rule.slice(0, rule.indexOf("{"));
  const escaped = /\.((?:\\[0-9a-fA-F]{1,6} ?|\\.|[\w-])+)/.exec(selector)?.[1];
  return escaped
    ?.replace(/\\([0-9a-fA-F]{1,6}) ?/g, (_, hex: string) => String.fromCodePoint(Number.parseInt(hex, 16)))
    .replace(/\\(.)/g, "$1");
}

function utilitiesOf(body: string): Block[] {
  return blocksOf(body).map((text) => {
    if (!text.startsWith("@")) return { text, utility: utilityClassOf(text) };
    const open = text.indexOf("{");
    return { text: text.slice(0, open + 1), children: utilitiesOf(text.slice(open + 1, -1)) };
  });
}

type ParsedStylesheet = { before: string; utilities: Block[]; after: string };

function parse(css: string): ParsedStylesheet | undefined {
  const start = css.indexOf("@layer utilities{");
  if (start < 0) return undefined;
  const layer = blocksOf(css.slice(start))[0];
  const open = "@layer utilities{".length;
  return {
    before: css.slice(0, start),
    utilities: utilitiesOf(layer.slice(open, -1)),
    after: css.slice(start + layer.length),
  };
}

function usedOf(blocks: Block[], used: Set<string>): string {
  let text = "";
  for (const block of blocks) {
    if (block.children) {
      const inner = usedOf(block.children, used);
      if (inner) text += `${block.text}${inner}}`;
    } else if (block.utility === undefined || used.has(block.utility)) {
      text += block.text;
    }
  }
  return text;
}

let cached: { css: string; parsed: ParsedStylesheet | undefined } | undefined;

/** Every class named by an element of `html`. */
function classesIn(html: string): Set<string> {
  const used = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1].split(/\s+/)) if (name) used.add(name);
  }
  return used;
}

/** The document with its inline copy of `css` cut to the rules its markup uses; unchanged when `css` is not in it. */
export function withUsedStylesOnly<Document extends Uint8Array>(document: Document, css: string | null) {
  if (!css) return document;
  const html = Buffer.from(document.buffer, document.byteOffset, document.byteLength).toString("utf8");
  const at = html.indexOf(css);
  if (at < 0) return document;
  if (cached?.css !== css) cached = { css, parsed: parse(css) };
  const { parsed } = cached;
  if (!parsed) return document;
  const utilities = usedOf(parsed.utilities, classesIn(html));
  const used = `${parsed.before}@layer utilities{${utilities}}${parsed.after}`;
  return html.slice(0, at) + used + html.slice(at + css.length);
}
