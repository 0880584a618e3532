import { createHmac } from "node:crypto";

/*
 * How a notification webhook request is signed (docs/notifications.md): HMAC-SHA256 with
 * NOTIFY_WEBHOOK_SECRET over `<timestamp>.<raw body>`, hex, sent as `v1=<hex>`. The timestamp is the
 * sending time in Unix seconds; a receiver refuses old ones, so a captured request cannot be replayed later.
 */

export const NOTIFICATION_HEADERS = {
  signature: "X-Store-Signature",
  timestamp: "X-Store-Timestamp",
  event: "X-Store-Event",
  idempotencyKey: "Idempotency-Key",
} as const;

export function signNotification(secret: string, timestamp: number, body: string): string {
  return `v1=${createHmac("sha256", secret).update(`${timestamp}.${body}`).digest("hex")}`;
}
