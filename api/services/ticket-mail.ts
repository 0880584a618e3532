import type { Executor } from "../db/client";
import { type OutgoingMail, enqueueMail } from "../mail/outbox";

function escapeHtml(value: string): string {
  return value.replace(/[&<>"']/g, (char) => `&#${char.charCodeAt(0)};`);
}

export type TicketReplyMailInput = { to: string; ticketId: string; subject: string; publicUrl: string };

/** Tells the customer support answered. The answer itself stays on the site, behind the sign-in. */
export function ticketReplyMail(input: TicketReplyMailInput): OutgoingMail {
  const ticketUrl = `${input.publicUrl}/tickets/${encodeURIComponent(input.ticketId)}`;
  const subject = `Support replied: ${input.subject.length > 60 ? `${input.subject.slice(0, 60)}…` : input.subject}`;
  const text = [
    `Our support team replied to your ticket "${input.subject}".`,
    `Read the answer and write back: ${ticketUrl}`,
  ].join("\n\n");
  const html = `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:24px">
<p style="margin:0 0 16px">Our support team replied to your ticket &quot;${escapeHtml(input.subject)}&quot;.</p>
<p style="margin:0 0 16px">Read the answer and write back: <a href="${escapeHtml(ticketUrl)}">${escapeHtml(ticketUrl)}</a></p>
</body></html>`;
  return { to: input.to, subject, text, html };
}

export async function enqueueTicketReplyMail(db: Executor, input: TicketReplyMailInput): Promise<void> {
  await enqueueMail(db, ticketReplyMail(input));
}

function shortSubject(subject: string): string {
  return subject.length > 60 ? `${subject.slice(0, 60)}…` : subject;
}

function htmlMail(subject: string, paragraphs: string[]): string {
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>${escapeHtml(subject)}</title></head>
<body style="font-family:system-ui,-apple-system,Segoe UI,Roboto,sans-serif;line-height:1.5;color:#111;max-width:560px;margin:0 auto;padding:24px">
${paragraphs.map((paragraph) => `<p style="margin:0 0 16px;white-space:pre-line">${paragraph}</p>`).join("\n")}
</body></html>`;
}

const LINK_WARNING = "Anyone with this link can read and write in this conversation: keep it to yourself.";

/** A guest's confirmation (ADR 039): the message reached support, and the link to the conversation. */
export function guestTicketOpenedMail(input: { to: string; subject: string; link: string }): OutgoingMail {
  const subject = `We received your message: ${shortSubject(input.subject)}`;
  const text = [
    "Thank you for writing to us. Our support team replies within 24 hours, by mail.",
    `Read the conversation and write more: ${input.link}`,
    LINK_WARNING,
  ].join("\n\n");
  const html = htmlMail(subject, [
    "Thank you for writing to us. Our support team replies within 24 hours, by mail.",
    `Read the conversation and write more: <a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a>`,
    escapeHtml(LINK_WARNING),
  ]);
  return { to: input.to, subject, text, html };
}

/** A staff answer to a guest: the answer itself (the guest has no account to read it behind) and the link. */
export function guestTicketAnswerMail(input: {
  to: string;
  subject: string;
  answer: string;
  link: string;
}): OutgoingMail {
  const subject = `Support replied: ${shortSubject(input.subject)}`;
  const text = [
    "Our support team replied to your message:",
    input.answer,
    `Write back in the conversation: ${input.link}`,
    LINK_WARNING,
  ].join("\n\n");
  const html = htmlMail(subject, [
    "Our support team replied to your message:",
    escapeHtml(input.answer),
    `Write back in the conversation: <a href="${escapeHtml(input.link)}">${escapeHtml(input.link)}</a>`,
    escapeHtml(LINK_WARNING),
  ]);
  return { to: input.to, subject, text, html };
}
