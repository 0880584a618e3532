import { readFileSync, readdirSync } from "node:fs";
import type { AddressInfo } from "node:net";
import path from "node:path";
import { eq } from "drizzle-orm";
import { SMTPServer } from "smtp-server";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox } from "../../api/db/schema";
import type { Logger } from "../../api/logger";
import { enqueueMail } from "../../api/mail/outbox";
import { MAX_MAIL_ATTEMPTS, flushOutbox, startMailer } from "../../api/mail/sender";
import { type AccountsTestApi, createAccountsTestApi } from "../support/accounts";

/** A real SMTP receiver on a free port; `failNext` makes it refuse that many messages with a temporary error. */
async function startSmtpReceiver() {
  const received: { to: string[]; raw: string }[] = [];
  const state = { failNext: 0 };
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        if (state.failNext > 0) {
          state.failNext--;
          return callback(Object.assign(new Error("Mailbox busy, try again later"), { responseCode: 451 }));
        }
        received.push({ to: session.envelope.rcptTo.map((address) => address.address), raw });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    state,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

function capturingLogger() {
  const lines: { level: string; message: string; fields?: Record<string, unknown> }[] = [];
  const at = (level: string) => (message: string, fields?: Record<string, unknown>) =>
    void lines.push({ level, message, fields });
  const logger: Logger = { debug: at("debug"), info: at("info"), warn: at("warn"), error: at("error") };
  return { logger, lines };
}

let t: AccountsTestApi;
let smtp: Awaited<ReturnType<typeof startSmtpReceiver>>;
beforeAll(async () => {
  smtp = await startSmtpReceiver();
  t = await createAccountsTestApi();
});
afterAll(async () => {
  await t?.close();
  await smtp?.close();
});

/** Leaves no due mail behind from an earlier test, so each test counts only its own. */
async function drain() {
  await t.db.update(mailOutbox).set({ status: "sent" }).where(eq(mailOutbox.status, "pending"));
}

describe("mail without SMTP_URL", () => {
  it("writes each mail as an .eml file in DATA_DIR/outbox and logs one line without the body", async () => {
    await drain();
    const id = await enqueueMail(t.db, {
      to: "eml@example.com",
      subject: "Hello there",
      text: "secret body 123456",
      html: "<p>secret body 123456</p>",
    });
    const { logger, lines } = capturingLogger();
    expect(await flushOutbox({ db: t.db, config: t.config, logger })).toEqual({ sent: 1, retrying: 0, failed: 0 });

    const folder = path.join(t.dataDir, "outbox");
    const file = readdirSync(folder).find((name) => name.endsWith(`-${id}.eml`));
    expect(file).toBeDefined();
    const eml = readFileSync(path.join(folder, file!), "utf8");
    expect(eml).toContain("To: eml@example.com");
    expect(eml).toContain("Subject: Hello there");
    expect(eml).toContain("secret body 123456");
    expect(eml).toContain("Content-Type: text/html");

    expect(lines).toHaveLength(1);
    expect(lines[0]).toMatchObject({
      level: "info",
      fields: { mailId: id, to: "[email]", subject: "Hello there" },
    });
    expect(JSON.stringify(lines)).not.toContain("123456");
    // The customer's address stays in the mail, out of the log (issue 25 item 3).
    expect(JSON.stringify(lines)).not.toContain("eml@example.com");
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: "sent", attempts: 1, lastError: null });
    expect(row.sentAt).toBeInstanceOf(Date);
  });

  it("does not send mail of a transaction that rolled back", async () => {
    await drain();
    await t.db
      .transaction(async (tx) => {
        await enqueueMail(tx, { to: "rolled-back@example.com", subject: "Never", text: "never" });
        throw new Error("the change failed");
      })
      .catch(() => {});
    const { logger } = capturingLogger();
    expect((await flushOutbox({ db: t.db, config: t.config, logger })).sent).toBe(0);
  });
});

describe("mail over SMTP", () => {
  const smtpConfig = () => ({ ...t.config, smtpUrl: smtp.url });

  it("delivers the reset code to a real SMTP receiver, and the code resets the password", async () => {
    await drain();
    await t.register({ username: "smtp-user", email: "smtp-user@example.com" });
    expect((await t.post("/v1/user/forget-password", { email: "smtp-user@example.com" })).status).toBe(200);
    const { logger } = capturingLogger();
    expect(await flushOutbox({ db: t.db, config: smtpConfig(), logger })).toEqual({ sent: 1, retrying: 0, failed: 0 });

    const mail = smtp.received.find((message) => message.to.includes("smtp-user@example.com"));
    expect(mail).toBeDefined();
    expect(mail!.raw).toContain("Subject: Your password reset code");
    expect(mail!.raw).toContain("From: Store <no-reply@store.localhost>");
    expect(mail!.raw).toMatch(/multipart\/alternative/);
    const otp = /Your code: (\d{6})/.exec(mail!.raw)![1];
    const reset = await t.post("/v1/user/reset-password", {
      email: "smtp-user@example.com",
      otp,
      password: "a passphrase from smtp",
      password2: "a passphrase from smtp",
    });
    expect(reset.status).toBe(200);
  });

  it("retries after an SMTP failure with backoff, then sends", async () => {
    await drain();
    const id = await enqueueMail(t.db, { to: "retry@example.com", subject: "Retry me", text: "body" });
    smtp.state.failNext = 1;
    const { logger, lines } = capturingLogger();
    const now = new Date();
    expect(await flushOutbox({ db: t.db, config: smtpConfig(), logger }, now)).toEqual({
      sent: 0,
      retrying: 1,
      failed: 0,
    });
    let [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row.status).toBe("pending");
    expect(row.attempts).toBe(1);
    expect(row.lastError).toContain("Mailbox busy");
    expect(row.nextAttemptAt.getTime()).toBe(now.getTime() + 30_000);
    expect(lines.some((line) => line.level === "warn" && line.message === "mail not sent")).toBe(true);

    // Not due yet: nothing happens.
    expect((await flushOutbox({ db: t.db, config: smtpConfig(), logger }, new Date(now.getTime() + 10_000))).sent).toBe(
      0,
    );
    expect(await flushOutbox({ db: t.db, config: smtpConfig(), logger }, new Date(now.getTime() + 31_000))).toEqual({
      sent: 1,
      retrying: 0,
      failed: 0,
    });
    [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: "sent", attempts: 2, lastError: null });
    expect(smtp.received.filter((message) => message.to.includes("retry@example.com"))).toHaveLength(1);
  });

  it(`gives up after ${MAX_MAIL_ATTEMPTS} failed attempts`, async () => {
    await drain();
    const id = await enqueueMail(t.db, { to: "hopeless@example.com", subject: "Hopeless", text: "body" });
    const { logger, lines } = capturingLogger();
    // Nothing listens on port 1: every attempt fails.
    const unreachable = { ...t.config, smtpUrl: "smtp://127.0.0.1:1" };
    let now = Date.now();
    for (let attempt = 1; attempt <= MAX_MAIL_ATTEMPTS; attempt++) {
      const result = await flushOutbox({ db: t.db, config: unreachable, logger }, new Date(now));
      expect(result).toEqual(
        attempt < MAX_MAIL_ATTEMPTS ? { sent: 0, retrying: 1, failed: 0 } : { sent: 0, retrying: 0, failed: 1 },
      );
      now += 3 * 60 * 60_000;
    }
    const [row] = await t.db.select().from(mailOutbox).where(eq(mailOutbox.id, id));
    expect(row).toMatchObject({ status: "failed", attempts: MAX_MAIL_ATTEMPTS });
    expect(lines.at(-1)).toMatchObject({ level: "error", message: "mail not sent" });
    expect((await flushOutbox({ db: t.db, config: unreachable, logger }, new Date(now))).failed).toBe(0);
  });

  it("sends each mail once when two senders flush at the same time", async () => {
    await drain();
    const before = smtp.received.length;
    for (let i = 0; i < 12; i++)
      await enqueueMail(t.db, { to: `batch${i}@example.com`, subject: `Batch ${i}`, text: "body" });
    const { logger } = capturingLogger();
    const results = await Promise.all([
      flushOutbox({ db: t.db, config: smtpConfig(), logger }),
      flushOutbox({ db: t.db, config: smtpConfig(), logger }),
    ]);
    expect(results[0].sent + results[1].sent).toBe(12);
    expect(smtp.received.length - before).toBe(12);
    expect(new Set(smtp.received.slice(before).map((message) => message.to[0])).size).toBe(12);
  });

  it("startMailer sends queued mail in the background until stopped", async () => {
    await drain();
    const { logger } = capturingLogger();
    const mailer = startMailer({ db: t.db, config: smtpConfig(), logger }, { intervalMs: 50 });
    try {
      await enqueueMail(t.db, { to: "background@example.com", subject: "Background", text: "body" });
      await expect
        .poll(() => smtp.received.some((message) => message.to.includes("background@example.com")), { timeout: 10_000 })
        .toBe(true);
    } finally {
      await mailer.stop();
    }
  });
});
