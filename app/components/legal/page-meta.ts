import type { MetaDescriptor } from "@remix-run/node";

export const STORE_NAME = "Store";

/** Title, description and the social-card tags every public page carries. */
export function pageMeta({ title, description }: { title: string; description: string }): MetaDescriptor[] {
  return [
    { title },
    { name: "description", content: description },
    { property: "og:title", content: title },
    { property: "og:description", content: description },
    { property: "og:type", content: "website" },
    { property: "og:site_name", content: STORE_NAME },
    { name: "twitter:card", content: "summary" },
    { name: "twitter:title", content: title },
    { name: "twitter:description", content: description },
  ];
}

/** Search engines show about 155 characters of a description. */
const DESCRIPTION_MAX_LENGTH = 155;

/** A one-line description from free text (a product's), cut at a word; the fallback when the text is empty. */
export function descriptionFrom(text: string, fallback: string): string {
  const line = text.replace(/\s+/g, " ").trim();
  if (!line) return fallback;
  if (line.length <= DESCRIPTION_MAX_LENGTH) return line;
  const cut = line.slice(0, DESCRIPTION_MAX_LENGTH - 1);
  const lastSpace = cut.lastIndexOf(" ");
  return `${(lastSpace > 80 ? cut.slice(0, lastSpace) : cut).replace(/[\s.,;:!?-]+$/, "")}…`;
}
