import type { APIRequestContext } from "@playwright/test";
import { signSandboxEvent } from "../../api/payments/sandbox";

/** The e2e server's SESSION_SECRET (tests/support/e2e-server.ts): the sandbox gateway signs its webhooks with a key derived from it. */
export const E2E_SESSION_SECRET = "e2e-session-secret-that-is-long-enough-0123456789";

/** Sends the e2e server a genuine signed sandbox "paid" webhook for a payment, as the provider would. */
export async function sendSandboxPaidWebhook(
  request: APIRequestContext,
  payment: { id: string; amountCents: number },
): Promise<{ status: number; outcome: string | undefined }> {
  const signed = signSandboxEvent(
    { paymentId: payment.id, amountCents: payment.amountCents, currency: "USD", outcome: "paid" },
    { sessionSecrets: [E2E_SESSION_SECRET] },
  );
  const response = await request.post("/v1/webhooks/sandbox", { data: signed.body, headers: signed.headers });
  const body = (await response.json()) as { payload?: { outcome?: string } };
  return { status: response.status(), outcome: body.payload?.outcome };
}
