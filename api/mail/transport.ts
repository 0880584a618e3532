import { mkdir, writeFile } from "node:fs/promises";
import path from "node:path";
import nodemailer from "nodemailer";
import type { Config } from "../config";
import type { OutgoingMail } from "./outbox";

export type MailTransport = {
  /** Resolves when the mail is accepted (by the SMTP server, or written to disk); rejects otherwise. */
  send(mail: OutgoingMail & { id: string }): Promise<{ file?: string }>;
  close(): void;
};

/** Where mail goes without SMTP_URL: one .eml file per message, which any mail client opens. */
export function outboxFolder(config: Config): string {
  return path.join(config.dataDir, "outbox");
}

/** SMTP when SMTP_URL is set; otherwise .eml files in DATA_DIR/outbox/, so development needs no mail server. */
export function createMailTransport(config: Config): MailTransport {
  const from = config.mailFrom;
  if (config.smtpUrl) {
    const smtp = nodemailer.createTransport(config.smtpUrl);
    return {
      async send(mail) {
        await smtp.sendMail({
          from,
          to: mail.to,
          subject: mail.subject,
          text: mail.text,
          html: mail.html ?? undefined,
        });
        return {};
      },
      close: () => smtp.close(),
    };
  }
  const composer = nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });
  const folder = outboxFolder(config);
  return {
    async send(mail) {
      const info = await composer.sendMail({
        from,
        to: mail.to,
        subject: mail.subject,
        text: mail.text,
        html: mail.html ?? undefined,
      });
      await mkdir(folder, { recursive: true });
      // Sortable by time; the mail id keeps names unique across instances.
      const file = path.join(folder, `${new Date().toISOString().replace(/[:.]/g, "-")}-${mail.id}.eml`);
      await writeFile(file, info.message as Buffer, { mode: 0o600 });
      return { file };
    },
    close: () => composer.close(),
  };
}
