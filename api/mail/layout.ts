import type { OutgoingMail } from "./outbox";

/*
 * The one look of every mail the store sends, and the one way to put text into it. `markup` is a template tag that
 * escapes every value it is given unless that value is markup it made itself (`Markup`), so a subject, a product
 * title or a staff answer can never become markup: forgetting to escape is not possible, only choosing not to.
 */

/** Markup built by `markup`, `link` or `paragraph`: safe to put into another template as it is. */
export class Markup {
  constructor(readonly value: string) {}
  toString(): string {
    return this.value;
  }
}

const ESCAPED: Record<string, string> = { "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" };

export function escapeHtml(text: string): string {
  return text.replace(/[&<>"']/g, (character) => ESCAPED[character]);
}

function markupOf(value: unknown): string {
  if (value instanceof Markup) return value.value;
  if (Array.isArray(value)) return value.map(markupOf).join("");
  return escapeHtml(String(value ?? ""));
}

/** Escapes each interpolated value (a `Markup`, or an array of them, stays as it is). */
export function markup(strings: TemplateStringsArray, ...values: unknown[]): Markup {
  let out = strings[0];
  values.forEach((value, index) => {
    out += markupOf(value) + strings[index + 1];
  });
  return new Markup(out);
}

/** A link that shows its own address (mail clients and readers trust a visible address more than a word). */
export function link(url: string): Markup {
  return markup`<a href="${url}">${url}</a>`;
}

/** One paragraph of text: escaped, its line breaks kept, and each of `links` that appears in it made a link. */
export function paragraph(text: string | Markup, links: readonly string[] = []): Markup {
  if (text instanceof Markup) return markup`<p style="margin:0 0 16px">${text}</p>`;
  let body = escapeHtml(text);
  for (const url of links) body = body.split(escapeHtml(url)).join(link(url).value);
  return new Markup(`<p style="margin:0 0 16px">${body.replace(/\n/g, "<br>")}</p>`);
}

/** A whole HTML mail: no images, scripts or trackers, so it reads the same in every client. */
export function mailHtml(title: string, blocks: readonly Markup[]): string {
  return markup`<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${title}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:24px">
${blocks.map((block) => markup`${block}\n`)}</body></html>`.value;
}

/** A mail whose text and HTML say the same paragraphs, each of `links` a link in the HTML. */
export function paragraphsMail(mail: {
  to: string;
  subject: string;
  paragraphs: readonly string[];
  links?: readonly string[];
  orderId?: string;
}): OutgoingMail {
  const html = mailHtml(
    mail.subject,
    mail.paragraphs.map((text) => paragraph(text, mail.links)),
  );
  const text = mail.paragraphs.join("\n\n");
  return { to: mail.to, subject: mail.subject, text, html, ...(mail.orderId && { orderId: mail.orderId }) };
}
