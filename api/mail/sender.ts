import type { Config } from "../config";
import type { Executor } from "../db/client";
import { mailOutbox } from "../db/schema";
import { type Logger, scrubText } from "../logger";
import { type DrainResult, type Outbox, drainOutbox, startOutboxWorker } from "../outbox-worker";
import { type MailTransport, createMailTransport } from "./transport";

/** After this many failed sends a mail is marked failed and left for a person to look at. */
export const MAX_MAIL_ATTEMPTS = 8;
/** A claimed mail is invisible to other instances this long; a crash mid-send only delays it. */
const CLAIM_LEASE_MS = 5 * 60_000;

export type FlushResult = DrainResult;

type MailerDeps = { db: Executor; config: Config; logger: Logger; transport?: MailTransport };

/** The mail outbox as the outbox worker drives it: sending is handing the mail to SMTP (or the outbox folder). */
function mailOutboxOf(deps: MailerDeps, transport: MailTransport): Outbox<typeof mailOutbox> {
  return {
    table: mailOutbox,
    leaseMs: CLAIM_LEASE_MS,
    maxAttempts: MAX_MAIL_ATTEMPTS,
    async send(mail) {
      const { file } = await transport.send({
        id: mail.id,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
      });
      // One line, never the body (reset codes travel in mail) nor the address: the .eml file names both.
      if (file) {
        deps.logger.info("mail written to the outbox folder", {
          mailId: mail.id,
          to: scrubText(mail.to),
          subject: scrubText(mail.subject),
          file,
        });
      } else {
        deps.logger.info("mail sent", { mailId: mail.id });
      }
    },
    failureText: (error) => (error instanceof Error ? error.message : String(error)),
    report(mail, outcome) {
      if (outcome.sent) return;
      deps.logger[outcome.givingUp ? "error" : "warn"]("mail not sent", {
        mailId: mail.id,
        attempts: outcome.attempts,
        givingUp: outcome.givingUp,
        error: scrubText(outcome.error),
      });
    },
  };
}

/**
 * Sends every mail that is due, once (api/outbox-worker.ts: claimed with a lease, so instances sharing a
 * database never send the same mail at the same time, and no transaction waits on a slow SMTP server).
 */
export async function flushOutbox(deps: MailerDeps, now = new Date()): Promise<FlushResult> {
  const transport = deps.transport ?? createMailTransport(deps.config);
  try {
    return await drainOutbox(deps.db, mailOutboxOf(deps, transport), now);
  } finally {
    if (!deps.transport) transport.close();
  }
}

export type Mailer = { stop(): Promise<void> };

/** Sends due mail every `intervalMs` until stopped; one transport (one SMTP connection pool) for its life. */
export function startMailer(deps: Omit<MailerDeps, "transport">, options: { intervalMs?: number } = {}): Mailer {
  const transport = createMailTransport(deps.config);
  return startOutboxWorker("mail outbox", "mailer", deps.logger, () => flushOutbox({ ...deps, transport }), {
    ...options,
    onStop: () => transport.close(),
  });
}
