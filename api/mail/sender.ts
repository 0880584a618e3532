import { and, asc, eq, inArray, lte } from "drizzle-orm";
import type { Config } from "../config";
import type { Executor } from "../db/client";
import { mailOutbox } from "../db/schema";
import { type Logger, scrubText } from "../logger";
import { type MailTransport, createMailTransport } from "./transport";
import { countJobRun } from "../metrics";

/** After this many failed sends a mail is marked failed and left for a person to look at. */
export const MAX_MAIL_ATTEMPTS = 8;
/** A claimed mail is invisible to other instances this long; a crash mid-send only delays it. */
const CLAIM_LEASE_MS = 5 * 60_000;
const BATCH_SIZE = 20;

/** 30 s, 1 min, 2 min, ... capped at 2 h: about four hours from the first failure to giving up. */
export function retryDelayMs(attempts: number): number {
  return Math.min(30_000 * 2 ** (attempts - 1), 2 * 60 * 60_000);
}

export type FlushResult = { sent: number; retrying: number; failed: number };

type MailerDeps = { db: Executor; config: Config; logger: Logger; transport?: MailTransport };

/**
 * Sends every mail that is due, once. Rows are claimed with FOR UPDATE SKIP LOCKED and a
 * lease, so instances sharing a database never send the same mail at the same time, and
 * no transaction stays open while a slow SMTP server answers.
 */
export async function flushOutbox(deps: MailerDeps, now = new Date()): Promise<FlushResult> {
  const transport = deps.transport ?? createMailTransport(deps.config);
  const result: FlushResult = { sent: 0, retrying: 0, failed: 0 };
  try {
    for (;;) {
      const claimed = await claimDueMail(deps.db, now);
      if (claimed.length === 0) return result;
      for (const mail of claimed) {
        await deliver(deps, transport, mail, result, now);
      }
    }
  } finally {
    if (!deps.transport) transport.close();
  }
}

async function claimDueMail(db: Executor, now: Date) {
  const due = db
    .select({ id: mailOutbox.id })
    .from(mailOutbox)
    .where(and(eq(mailOutbox.status, "pending"), lte(mailOutbox.nextAttemptAt, now)))
    .orderBy(asc(mailOutbox.nextAttemptAt))
    .limit(BATCH_SIZE)
    .for("update", { skipLocked: true });
  return db
    .update(mailOutbox)
    .set({ nextAttemptAt: new Date(now.getTime() + CLAIM_LEASE_MS) })
    .where(inArray(mailOutbox.id, due))
    .returning();
}

async function deliver(
  deps: MailerDeps,
  transport: MailTransport,
  mail: typeof mailOutbox.$inferSelect,
  result: FlushResult,
  now: Date,
): Promise<void> {
  const attempts = mail.attempts + 1;
  try {
    const { file } = await transport.send({
      id: mail.id,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html ?? undefined,
    });
    await deps.db
      .update(mailOutbox)
      .set({ status: "sent", attempts, sentAt: now, lastError: null })
      .where(eq(mailOutbox.id, mail.id));
    result.sent++;
    // One line, never the body (reset codes travel in mail) nor the address: the .eml file names both.
    if (file)
      deps.logger.info("mail written to the outbox folder", {
        mailId: mail.id,
        to: scrubText(mail.to),
        subject: scrubText(mail.subject),
        file,
      });
    else deps.logger.info("mail sent", { mailId: mail.id });
  } catch (error) {
    const lastError = (error instanceof Error ? error.message : String(error)).slice(0, 500);
    const givingUp = attempts >= MAX_MAIL_ATTEMPTS;
    await deps.db
      .update(mailOutbox)
      .set({
        status: givingUp ? "failed" : "pending",
        attempts,
        lastError,
        nextAttemptAt: new Date(now.getTime() + retryDelayMs(attempts)),
      })
      .where(eq(mailOutbox.id, mail.id));
    if (givingUp) result.failed++;
    else result.retrying++;
    deps.logger[givingUp ? "error" : "warn"]("mail not sent", {
      mailId: mail.id,
      attempts,
      givingUp,
      error: scrubText(lastError),
    });
  }
}

export type Mailer = { stop(): Promise<void> };

/** Sends due mail every `intervalMs` until stopped; one transport (one SMTP connection pool) for its life. */
export function startMailer(deps: Omit<MailerDeps, "transport">, options: { intervalMs?: number } = {}): Mailer {
  const intervalMs = options.intervalMs ?? 2_000;
  const transport = createMailTransport(deps.config);
  let stopped = false;
  let timer: NodeJS.Timeout | undefined;
  let running: Promise<unknown> = Promise.resolve();

  const tick = () => {
    running = flushOutbox({ ...deps, transport })
      .then(() => countJobRun("mailer", "ok"))
      .catch((error) => {
        countJobRun("mailer", "error");
        deps.logger.error("mail outbox flush failed", { error });
      })
      .finally(() => {
        if (!stopped) timer = setTimeout(tick, intervalMs).unref();
      });
  };
  tick();

  return {
    async stop() {
      stopped = true;
      clearTimeout(timer);
      await running;
      transport.close();
    },
  };
}
