import { type IncomingMessage, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { SMTPServer } from "smtp-server";
import { NOTIFICATION_HEADERS, signNotification } from "../../api/notifications/signature";

/* What a real store sends to, as tests stand it up: an SMTP server (SMTP_URL) and the operator's webhook (NOTIFY_WEBHOOK_URL). */

/** A real SMTP server that records the Subject of every message it accepts. */
export async function startSmtpReceiver() {
  const subjects: string[] = [];
  const server = new SMTPServer({
    disabledCommands: ["STARTTLS", "AUTH"],
    authOptional: true,
    logger: false,
    onData(stream, _session, callback) {
      let raw = "";
      stream.on("data", (chunk: Buffer) => (raw += chunk.toString("utf8")));
      stream.on("end", () => {
        subjects.push(/^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "");
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.server.address() as AddressInfo;
  return {
    url: `smtp://127.0.0.1:${port}`,
    subjects,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The operator's webhook endpoint: keeps each delivery's idempotency key and whether its signature verified. */
export async function startWebhookReceiver(secret: string) {
  const deliveries: { key: string; verified: boolean }[] = [];
  const read = (request: IncomingMessage) =>
    new Promise<string>((resolve) => {
      let body = "";
      request.on("data", (chunk: Buffer) => (body += chunk.toString("utf8")));
      request.on("end", () => resolve(body));
    });
  const server = createServer(async (request, response) => {
    const body = await read(request);
    const timestamp = Number(request.headers[NOTIFICATION_HEADERS.timestamp.toLowerCase()]);
    const signature = String(request.headers[NOTIFICATION_HEADERS.signature.toLowerCase()] ?? "");
    deliveries.push({
      key: String(request.headers[NOTIFICATION_HEADERS.idempotencyKey.toLowerCase()] ?? ""),
      verified: signature === signNotification(secret, timestamp, body),
    });
    response.writeHead(204).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", () => resolve()));
  const { port } = server.address() as AddressInfo;
  return {
    url: `http://127.0.0.1:${port}/hooks/store`,
    deliveries,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
