/*
 * A document carries only the stylesheet rules its own markup uses (issue 40). The production stylesheet is inline
 * (ADR 033: no round trip before the first paint), but whole it is 49 KB on every page, more than /shop's cards;
 * a page uses a fifth of its utility rules. The base rules stay whole; a utility, component or site rule stays
 * when the classes it needs are on elements of the page (ignoring those inside `:not()` and other parentheses,
 * which keeps a rule rather than risk dropping one); a custom property (a theme colour, Tailwind's `--tw-*`
 * defaults and `@property` registrations) stays when something kept, or the markup, names it. With JavaScript,
 * InlineStyles links the whole file after hydration, for what the page shows later (a dialog, the cart panel,
 * another page).
 */

/** A rule with the class sets that let it apply (any one of them, all its classes); or an at-rule around rules. */
type Block = { text: string; needs?: string[][]; children?: Block[] };

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

/** The class name that starts at `start` (after its dot), unescaped, and where it ends. */
function classNameAt(selectors: string, start: number): [string, number] {
  let name = "";
  let index = start;
  for (; index < selectors.length; index++) {
    const character = selectors[index];
    if (character === "\\") {
      const hex = /^[0-9a-fA-F]{1,6} ?/.exec(selectors.slice(index + 1, index + 8))?.[0];
      if (hex) {
        name += String.fromCodePoint(Number.parseInt(hex.trim(), 16));
        index += hex.length;
      } else name += selectors[++index];
    } else if (/[\w-]/.test(character)) name += character;
    else break;
  }
  return [name, index];
}

/** Where the bracket or parenthesis opened at `start` closes. */
function closingOf(selectors: string, start: number): number {
  let depth = 0;
  for (let index = start; index < selectors.length; index++) {
    const character = selectors[index];
    if (character === "\\") index++;
    else if (character === "(" || character === "[") depth++;
    else if ((character === ")" || character === "]") && --depth === 0) return index;
  }
  return selectors.length;
}

/**
 * For each selector of a list, the classes an element (or its ancestors) must carry for it to apply:
 * `.sm\:p-4` needs `sm:p-4`; `.card h3,.star-rating label` needs `card` or `star-rating`; `:where(.space-y-4>*)`
 * needs `space-y-4`. Classes under `:not()`, `:has()` or in a list inside `:is()` are not required: the rule stays,
 * rather than risk dropping one that applies.
 */
function classesNeededBy(selectors: string): string[][] {
  const alternatives: string[][] = [[]];
  const current = () => alternatives[alternatives.length - 1];
  for (let index = 0; index < selectors.length; index++) {
    const character = selectors[index];
    if (character === "\\") index++;
    else if (character === "[") index = closingOf(selectors, index);
    else if (character === "(") {
      const close = closingOf(selectors, index);
      const pseudo = /:([\w-]+)$/.exec(selectors.slice(0, index))?.[1];
      if (pseudo === "where" || pseudo === "is") {
        const inner = classesNeededBy(selectors.slice(index + 1, close));
        if (inner.length === 1) current().push(...inner[0]);
      }
      index = close;
    } else if (character === ",") alternatives.push([]);
    else if (character === ".") {
      const [name, end] = classNameAt(selectors, index + 1);
      current().push(name);
      index = end - 1;
    }
  }
  return alternatives;
}

/** The rules of a stylesheet's part, each with the classes it needs; at-rules (`@media`) hold theirs. */
function rulesOf(body: string): Block[] {
  return blocksOf(body).map((text) => {
    if (text.startsWith("@property") || text.startsWith("@keyframes")) return { text };
    if (!text.startsWith("@")) return { text, needs: classesNeededBy(text.slice(0, text.indexOf("{"))) };
    const open = text.indexOf("{");
    if (open < 0) return { text };
    return { text: text.slice(0, open + 1), children: rulesOf(text.slice(open + 1, -1)) };
  });
}

/** One custom property's declaration (`--name:value`) or registration (`@property --name{...}`). */
type Property = { name: string; text: string };
/** A run of the stylesheet: kept as written, or a list of custom properties kept one by one. */
type Piece =
  | { kind: "text"; text: string }
  | { kind: "rules"; open: string; rules: Block[]; close: string }
  | { kind: "properties"; open: string; properties: Property[]; close: string }
  | { kind: "registration"; property: Property };

type ParsedStylesheet = { before: Piece[]; utilities: Block[]; after: Piece[] };

const PROPERTY_NAME = /--[\w-]+/;

/** `--a:1;--b:var(--a)` as its declarations. Values hold no `;` (Tailwind's theme and defaults never do). */
function declarationsOf(body: string): Property[] {
  return body
    .split(";")
    .filter((text) => text.trim())
    .map((text) => ({ name: text.slice(0, text.indexOf(":")).trim(), text }));
}

/**
 * The theme layer (`@layer theme{:root,:host{...}}`) and Tailwind's defaults layer
 * (`@layer properties{@supports (...){*,...{...}}}`) become lists of properties; the components layer and the
 * site's own rules (after the layers) lists of rules; the rest (the base layer, the layer order) stays text.
 */
function piecesOf(css: string, siteRules: boolean): Piece[] {
  const pieces: Piece[] = [];
  for (const block of blocksOf(css)) {
    const registration = /^@property\s+(--[\w-]+)\s*\{/.exec(block);
    if (registration) {
      pieces.push({ kind: "registration", property: { name: registration[1], text: block } });
      continue;
    }
    if (block.startsWith("@layer components{")) {
      const open = "@layer components{".length;
      pieces.push({ kind: "rules", open: block.slice(0, open), rules: rulesOf(block.slice(open, -1)), close: "}" });
      continue;
    }
    if (siteRules && !block.startsWith("@layer")) {
      pieces.push({ kind: "rules", open: "", rules: rulesOf(block), close: "" });
      continue;
    }
    // The build's licence comment sits before the first layer.
    const innermost = /^(?:\/\*[\s\S]*?\*\/)?\s*@layer (?:theme|properties)\{/.test(block);
    const open = block.lastIndexOf("{", block.indexOf("--"));
    const close = block.indexOf("}", open);
    if (!innermost || open < 0 || close < 0 || block.slice(open + 1, close).includes("{")) {
      pieces.push({ kind: "text", text: block });
      continue;
    }
    pieces.push({
      kind: "properties",
      open: block.slice(0, open + 1),
      properties: declarationsOf(block.slice(open + 1, close)),
      close: block.slice(close),
    });
  }
  return pieces;
}

function parse(css: string): ParsedStylesheet | undefined {
  const start = css.indexOf("@layer utilities{");
  if (start < 0) return undefined;
  const layer = blocksOf(css.slice(start))[0];
  const open = "@layer utilities{".length;
  return {
    before: piecesOf(css.slice(0, start), false),
    utilities: rulesOf(layer.slice(open, -1)),
    after: piecesOf(css.slice(start + layer.length), true),
  };
}

function usedOf(blocks: Block[], used: Set<string>): string {
  let text = "";
  for (const block of blocks) {
    if (block.children) {
      const inner = usedOf(block.children, used);
      if (inner) text += `${block.text}${inner}}`;
    } else if (!block.needs || block.needs.some((classes) => classes.every((name) => used.has(name)))) {
      text += block.text;
    }
  }
  return text;
}

/** Every custom property `text` names (set or read), added to `names`. */
function addNamesIn(text: string, names: Set<string>) {
  for (const match of text.matchAll(new RegExp(PROPERTY_NAME, "g"))) names.add(match[0]);
}

/** The rules pieces cut to the rules `used` classes let apply; text and properties pieces unchanged for now. */
function withRulesCut(pieces: Piece[], used: Set<string>): Piece[] {
  return pieces.map((piece) => {
    if (piece.kind !== "rules") return piece;
    const kept = usedOf(piece.rules, used);
    return { kind: "text", text: kept ? `${piece.open}${kept}${piece.close}` : "" };
  });
}

/**
 * The custom properties to keep: those the kept rules or the markup name, and those the kept theme values read in
 * turn (`--default-font-family:var(--font-sans)`).
 */
function namedProperties(pieces: Piece[], keptText: string): Set<string> {
  const names = new Set<string>();
  addNamesIn(keptText, names);
  for (const piece of pieces) {
    if (piece.kind === "text") addNamesIn(piece.text, names);
    if (piece.kind === "properties") addNamesIn(piece.open + piece.close, names);
  }
  const values = pieces.flatMap((piece) => (piece.kind === "properties" ? piece.properties : []));
  for (let grown = true; grown;) {
    grown = false;
    for (const { name, text } of values) {
      if (!names.has(name)) continue;
      const before = names.size;
      addNamesIn(text.slice(text.indexOf(":")), names);
      grown ||= names.size > before;
    }
  }
  return names;
}

function textOf(pieces: Piece[], names: Set<string>): string {
  let text = "";
  for (const piece of pieces) {
    if (piece.kind === "text") text += piece.text;
    else if (piece.kind === "registration") text += names.has(piece.property.name) ? piece.property.text : "";
    else if (piece.kind === "properties") {
      const kept = piece.properties.filter(({ name }) => names.has(name));
      if (kept.length > 0)
        text += `${piece.open}${kept.map(({ text: declaration }) => declaration).join(";")}${piece.close}`;
    }
  }
  return text;
}

let cached: { css: string; parsed: ParsedStylesheet | undefined; byClasses: Map<string, string> } | undefined;
/** Pages of one kind share their class sets: the cut stylesheet is kept for the last few sets seen. */
const CUTS_KEPT = 64;

/** Every class named by an element of `html`, and every style attribute's text (it may read a theme property). */
function markupOf(html: string): { classes: Set<string>; styles: string } {
  const classes = new Set<string>();
  for (const match of html.matchAll(/\sclass="([^"]*)"/g)) {
    for (const name of match[1].split(/\s+/)) if (name) classes.add(name);
  }
  let styles = "";
  for (const match of html.matchAll(/\sstyle="([^"]*)"/g)) styles += `${match[1]};`;
  return { classes, styles };
}

/** The stylesheet cut to what a document with these classes and style attributes uses. */
export function usedStylesheet(css: string, markup: { classes: Set<string>; styles: string }): string {
  if (cached?.css !== css) cached = { css, parsed: parse(css), byClasses: new Map() };
  const { parsed, byClasses } = cached;
  if (!parsed) return css;
  const key = `${[...markup.classes].sort().join(" ")}\n${markup.styles}`;
  const known = byClasses.get(key);
  if (known !== undefined) return known;
  const utilities = usedOf(parsed.utilities, markup.classes);
  const before = withRulesCut(parsed.before, markup.classes);
  const after = withRulesCut(parsed.after, markup.classes);
  const names = namedProperties([...before, ...after], utilities + markup.styles);
  const used = `${textOf(before, names)}@layer utilities{${utilities}}${textOf(after, names)}`;
  if (byClasses.size >= CUTS_KEPT) byClasses.delete(byClasses.keys().next().value as string);
  byClasses.set(key, used);
  return used;
}

/** The document with its inline copy of `css` cut to the rules its markup uses; unchanged when `css` is not in it. */
export function withUsedStylesOnly<Document extends Uint8Array>(document: Document, css: string | null) {
  if (!css) return document;
  const html = Buffer.from(document.buffer, document.byteOffset, document.byteLength).toString("utf8");
  const at = html.indexOf(css);
  if (at < 0) return document;
  // The stylesheet names no class or style attribute: the whole document is read as it is, without a copy.
  const used = usedStylesheet(css, markupOf(html));
  return html.slice(0, at) + used + html.slice(at + css.length);
}
