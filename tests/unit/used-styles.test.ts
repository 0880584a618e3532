import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { usedStylesheet, withUsedStylesOnly } from "../../app/lib/used-styles.server";

/* A stylesheet shaped as Tailwind v4 builds app.css: defaults, theme, base, the site's rules, utilities, registrations. */
const DEFAULTS =
  "@layer properties{@supports (((-webkit-hyphens:none)) and (not (margin-trim:block))){*,:before,:after,::backdrop" +
  "{--tw-shadow:0 0 #0000;--tw-ring-shadow:0 0 #0000;--tw-gradient-from:#0000;--tw-gradient-stops:initial;--tw-blur:initial}}}";
const THEME =
  '@layer theme{:root,:host{--font-sans:"Segoe UI", Arial, sans-serif;--default-font-family:var(--font-sans);' +
  "--color-brand-600:oklch(50% .2 260);--color-brand-700:oklch(45% .2 260);--color-red-600:oklch(57% .24 27);" +
  "--color-slate-100:oklch(96% .007 247);--spacing:.25rem;--radius-lg:.5rem}}";
const BASE = "@layer base{html{font-family:var(--default-font-family)}}";
const COMPONENTS = "@layer components{.product-card{background:var(--color-slate-100);border-radius:var(--radius-lg)}}";
const UTILITIES =
  "@layer utilities{.p-4{padding:calc(var(--spacing)*4)}.text-red-600{color:var(--color-red-600)}" +
  ".shadow{--tw-shadow:0 1px 3px #0000001a;box-shadow:var(--tw-ring-shadow),var(--tw-shadow)}" +
  ".from-brand-700{--tw-gradient-from:var(--color-brand-700);--tw-gradient-stops:var(--tw-gradient-from)}" +
  ".blur{--tw-blur:blur(8px);filter:var(--tw-blur)}@media (min-width:40rem){.sm\\:p-4{padding:calc(var(--spacing)*4)}}}";
const SITE =
  ":focus-visible{outline:3px solid var(--color-brand-600)}.star-rating label{color:#94a3b8}" +
  ".product-card:not(.sold-out):hover{color:var(--color-brand-700)}:where(.space-y-4>:not(:last-child)){margin:0}" +
  ".group-hover\\:underline:is(:where(.group):hover *){text-decoration:underline}@media (hover:hover){.star-rating:hover{color:red}}";
const REGISTRATIONS =
  '@property --tw-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}' +
  '@property --tw-ring-shadow{syntax:"*";inherits:false;initial-value:0 0 #0000}' +
  '@property --tw-gradient-from{syntax:"<color>";inherits:false;initial-value:#0000}' +
  '@property --tw-blur{syntax:"*";inherits:false}';
const CSS = `/*! tailwindcss v4 | MIT License */${DEFAULTS}@layer theme,base,components,utilities;${THEME}${BASE}${COMPONENTS}${UTILITIES}${SITE}${REGISTRATIONS}`;
const UTILITY_CLASSES = ["p-4", "text-red-600", "shadow", "from-brand-700", "blur", "sm:p-4"];

const cut = (classes: string[], styles = "") => usedStylesheet(CSS, { classes: new Set(classes), styles });
/** Every custom property a stylesheet reads with var(). */
const readIn = (css: string) => new Set([...css.matchAll(/var\((--[\w-]+)/g)].map((match) => match[1]));
/** Every custom property a stylesheet declares or registers. */
const declaredIn = (css: string) =>
  new Set([...css.matchAll(/(?:[{;]|@property )(--[\w-]+)[:{]/g)].map((match) => match[1]));

describe("a document's inline stylesheet", () => {
  it("keeps the utilities its markup names and the theme and defaults they read, and drops the rest", () => {
    const used = cut(["p-4", "shadow"]);
    expect(used).toContain(".p-4{");
    expect(used).toContain(".shadow{");
    expect(used).not.toContain(".text-red-600");
    expect(used).not.toContain("--color-red-600");
    expect(used).not.toContain("--tw-blur");
    expect(used).not.toContain("--tw-gradient-from");
    expect(used).toContain("--tw-shadow:0 0 #0000;--tw-ring-shadow:0 0 #0000}}}");
    expect(used).toContain("--spacing:.25rem");
    expect(used).toContain("@property --tw-shadow{");
    expect(used).toContain("@property --tw-ring-shadow{");
    // Base and the site's rules without a class stay, with the theme values they read, and what those read.
    expect(used).toContain("--default-font-family:var(--font-sans)");
    expect(used).toContain('--font-sans:"Segoe UI", Arial, sans-serif');
    expect(used).toContain(":focus-visible{");
    expect(used).toContain("--color-brand-600:");
    // A component or site rule needs its classes on the page, as a utility does.
    expect(used).not.toContain(".product-card");
    expect(used).not.toContain("--radius-lg");
    expect(used).not.toContain(".star-rating");
  });

  it("keeps a component or site rule whose classes are on the page, and one that only excludes a class", () => {
    const used = cut(["product-card"]);
    expect(used).toContain(".product-card{background:var(--color-slate-100)");
    expect(used).toContain("--radius-lg:.5rem");
    expect(used).toContain(".product-card:not(.sold-out):hover{");
    expect(used).not.toContain(".star-rating");
    expect(used).not.toContain("space-y-4");
    expect(cut(["space-y-4"])).toContain(":where(.space-y-4>:not(:last-child)){margin:0}");
    expect(cut(["group-hover:underline"])).not.toContain("group-hover");
    expect(cut(["group-hover:underline", "group"])).toContain(".group-hover\\:underline:is(");
    const rating = cut(["star-rating"]);
    expect(rating).toContain(".star-rating label{");
    expect(rating).toContain("@media (hover:hover){.star-rating:hover{color:red}}");
  });

  it("keeps a theme value that only a style attribute reads", () => {
    expect(cut([], "color:var(--color-red-600)")).toContain("--color-red-600:");
    expect(cut([])).not.toContain("--color-red-600:");
  });

  it("never reads a custom property it declared in the whole stylesheet but dropped, for any set of classes", () => {
    const declaredWhole = declaredIn(CSS);
    fc.assert(
      fc.property(
        fc.subarray(UTILITY_CLASSES),
        fc.subarray(["color:var(--color-brand-700)", "--x:1"]),
        (classes, styles) => {
          const used = cut([...classes, "product-card"], styles.join(";"));
          const declared = declaredIn(used);
          for (const name of [...readIn(used), ...readIn(styles.join(";"))]) {
            if (declaredWhole.has(name)) expect(declared, name).toContain(name);
          }
          // And it is the whole stylesheet's text with parts left out, never a rule the stylesheet did not have.
          for (const utility of classes) expect(used).toContain(`.${utility.replace(":", "\\:")}{`);
          // Every rule kept is a rule of the whole stylesheet.
          for (const rule of used.match(/\.[\w\\:-]+\{[^}]*\}/g) ?? []) expect(CSS).toContain(rule);
        },
      ),
    );
  });

  it("is the same for the same classes, from its store or not", () => {
    expect(cut(["shadow", "p-4"])).toBe(cut(["p-4", "shadow"]));
  });

  it("is cut in place in the document, which is otherwise unchanged", () => {
    const html = `<html><head><style>${CSS}</style></head><body><p class="p-4 text-red-600">Hi</p></body></html>`;
    const out = withUsedStylesOnly(new TextEncoder().encode(html), CSS) as unknown as string;
    expect(out.startsWith("<html><head><style>")).toBe(true);
    expect(out.endsWith('</style></head><body><p class="p-4 text-red-600">Hi</p></body></html>')).toBe(true);
    expect(out).toContain(".text-red-600{");
    expect(out).not.toContain(".shadow{");
    expect(withUsedStylesOnly(new TextEncoder().encode(html), null)).toBeInstanceOf(Uint8Array);
  });
});
