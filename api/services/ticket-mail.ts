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
