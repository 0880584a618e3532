import type { Executor } from "../../db/client";
import { paragraphsMail } from "../../mail/layout";
import { type OutgoingMail, enqueueMail } from "../../mail/outbox";

export type TicketReplyMailInput = { to: string; ticketId: string; subject: string; publicUrl: string };

/** Tells the customer support answered. The answer itself stays on the site, behind the sign-in. */
export function ticketReplyMail(input: TicketReplyMailInput): OutgoingMail {
  const ticketUrl = `${input.publicUrl}/tickets/${encodeURIComponent(input.ticketId)}`;
  return paragraphsMail({
    to: input.to,
    subject: `Support replied: ${shortSubject(input.subject)}`,
    paragraphs: [
      `Our support team replied to your ticket "${input.subject}".`,
      `Read the answer and write back: ${ticketUrl}`,
    ],
    links: [ticketUrl],
  });
}

export async function enqueueTicketReplyMail(db: Executor, input: TicketReplyMailInput): Promise<void> {
  await enqueueMail(db, ticketReplyMail(input));
}

function shortSubject(subject: string): string {
  return subject.length > 60 ? `${subject.slice(0, 60)}…` : subject;
}

const LINK_WARNING = "Anyone with this link can read and write in this conversation: keep it to yourself.";

/** A guest's confirmation (ADR 039): the message reached support, and the link to the conversation. */
export function guestTicketOpenedMail(input: { to: string; subject: string; link: string }): OutgoingMail {
  return paragraphsMail({
    to: input.to,
    subject: `We received your message: ${shortSubject(input.subject)}`,
    paragraphs: [
      "Thank you for writing to us. Our support team replies within 24 hours, by mail.",
      `Read the conversation and write more: ${input.link}`,
      LINK_WARNING,
    ],
    links: [input.link],
  });
}

/** A staff answer to a guest: the answer itself (the guest has no account to read it behind) and the link. */
export function guestTicketAnswerMail(input: {
  to: string;
  subject: string;
  answer: string;
  link: string;
}): OutgoingMail {
  return paragraphsMail({
    to: input.to,
    subject: `Support replied: ${shortSubject(input.subject)}`,
    paragraphs: [
      "Our support team replied to your message:",
      input.answer,
      `Write back in the conversation: ${input.link}`,
      LINK_WARNING,
    ],
    links: [input.link],
  });
}
