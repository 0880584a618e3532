import type { Executor } from "../db/client";
import { mailOutbox } from "../db/schema";

export type OutgoingMail = {
  to: string;
  subject: string;
  text: string;
  html?: string;
  /** The order the mail is about: the back office lists an order's mails by it. */
  orderId?: string;
};

/**
 * Queues a mail in the caller's transaction: it is sent only if the change it reports
 * commits, and a failed send is retried by the mailer instead of being lost.
 */
export async function enqueueMail(db: Executor, mail: OutgoingMail, now = new Date()): Promise<string> {
  const [row] = await db
    .insert(mailOutbox)
    .values({
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      orderId: mail.orderId,
      nextAttemptAt: now,
      createdAt: now,
    })
    .returning({ id: mailOutbox.id });
  return row.id;
}
