import type { Executor } from "../../db/client";
import { paragraphsMail } from "../../mail/layout";
import { enqueueMail } from "../../mail/outbox";
import type { OutgoingMail } from "../../mail/outbox";
import { centsToUsd } from "../../../contract/money";
import type { PaidOrderStatus } from "../../../contract/order";

export type OrderMailInput = {
  to: string;
  orderId: string;
  publicUrl: string;
  status: PaidOrderStatus;
  lines: {
    title: string;
    subtitle: string;
    quantity: number;
    delivered: number;
    manual: boolean;
    /** Refunded to the balance by staff: its credentials were withdrawn. */
    refunded?: boolean;
  }[];
  priceCents: number;
  refundedCents: number;
  /** The account was made by guest checkout: tell the owner how to set a password. */
  autoCreatedAccount: boolean;
};

/**
 * The order confirmation. Credentials are not in the mail: mail is stored and forwarded in many places,
 * so it carries the order link, where they are shown.
 */
export function orderConfirmationMail(input: OrderMailInput): OutgoingMail {
  const orderUrl = `${input.publicUrl}/find-order?id=${encodeURIComponent(input.orderId)}`;
  const forgotUrl = `${input.publicUrl}/forgot`;
  const shortId = input.orderId.slice(0, 8);
  const subject =
    input.status === "processing"
      ? `Your order ${shortId} is being processed`
      : input.status === "partiallyComplete"
        ? `Your order ${shortId} is partly delivered`
        : `Your order ${shortId} is ready`;
  const lineTexts = input.lines.map((line) => {
    const what = `${line.quantity} × ${line.title}${line.subtitle ? ` (${line.subtitle})` : ""}`;
    if (line.refunded) return `${what}: refunded to your account balance`;
    if (line.manual) return `${what}: being processed, we deliver it by hand shortly`;
    if (line.delivered < line.quantity) return `${what}: ${line.delivered} delivered`;
    return `${what}: delivered`;
  });
  const paragraphs: string[] = [
    input.status === "processing"
      ? "Thank you for your order. It is paid and being processed: we mail you again when it is delivered."
      : "Thank you for your order. It is paid.",
    lineTexts.join("\n"),
    `Total: $${centsToUsd(input.priceCents).toFixed(2)}`,
  ];
  if (input.refundedCents > 0) {
    paragraphs.push(
      `Part of your order was sold out when your payment arrived, so $${centsToUsd(input.refundedCents).toFixed(2)} ` +
        "was credited to your account balance. You can spend it on your next order.",
    );
  }
  paragraphs.push(`See your order and its credentials: ${orderUrl}`);
  if (input.autoCreatedAccount) {
    paragraphs.push(
      `We created an account for ${input.to} with this order, so there is no need to create one: to sign in, ` +
        `set its password at ${forgotUrl} (enter this email address and we mail you a code).`,
    );
  }
  paragraphs.push("Keep this mail: anyone with the order link can see the order.");
  return orderMail(input, subject, paragraphs, [orderUrl, forgotUrl]);
}

/** The paragraphs as text and HTML, with each of `links` made a link in the HTML. */
function orderMail(
  input: { to: string; orderId: string },
  subject: string,
  paragraphs: string[],
  links: string[],
): OutgoingMail {
  return paragraphsMail({ to: input.to, subject, paragraphs, links, orderId: input.orderId });
}

export type OrderDeliveredMailInput = {
  to: string;
  orderId: string;
  publicUrl: string;
  line: { title: string; subtitle: string; quantity: number };
  /** Nothing of the order waits any more: it is no longer being processed. */
  orderDone: boolean;
};

/** Staff delivered a manual line by hand. Like the confirmation, it carries the order link, not the credentials. */
export function orderDeliveredMail(input: OrderDeliveredMailInput): OutgoingMail {
  const orderUrl = `${input.publicUrl}/find-order?id=${encodeURIComponent(input.orderId)}`;
  const { line } = input;
  const what = `${line.quantity} × ${line.title}${line.subtitle ? ` (${line.subtitle})` : ""}`;
  const shortId = input.orderId.slice(0, 8);
  return orderMail(
    input,
    input.orderDone ? `Your order ${shortId} is delivered` : `Part of your order ${shortId} is delivered`,
    [
      input.orderDone
        ? `We delivered ${what} of your order. Your order is complete.`
        : `We delivered ${what} of your order. The rest is still being processed: we mail you when it is delivered.`,
      `See your order and its credentials: ${orderUrl}`,
      "Keep this mail: anyone with the order link can see the order.",
    ],
    [orderUrl],
  );
}

export async function enqueueOrderConfirmation(db: Executor, input: OrderMailInput, now?: Date): Promise<void> {
  await enqueueMail(db, orderConfirmationMail(input), now);
}
