import { mailHtml, markup, paragraph, paragraphsMail } from "./layout";
import type { OutgoingMail } from "./outbox";

export function resetCodeMail(options: {
  to: string;
  code: string;
  publicUrl: string;
  validMinutes: number;
}): OutgoingMail {
  const resetUrl = `${options.publicUrl}/reset?email=${encodeURIComponent(options.to)}`;
  const subject = "Your password reset code";
  const text = [
    "Someone asked to reset the password of the account with this email address.",
    "",
    `Your code: ${options.code}`,
    "",
    `Enter it at ${resetUrl} within ${options.validMinutes} minutes. It works once.`,
    "",
    "If you did not ask for this, ignore this mail: your password stays as it is.",
  ].join("\n");
  const body = mailHtml(subject, [
    paragraph("Someone asked to reset the password of the account with this email address."),
    paragraph(markup`Your code: <strong style="font-size:24px;letter-spacing:4px">${options.code}</strong>`),
    paragraph(`Enter it at ${resetUrl} within ${options.validMinutes} minutes. It works once.`, [resetUrl]),
    paragraph("If you did not ask for this, ignore this mail: your password stays as it is."),
  ]);
  return { to: options.to, subject, text, html: body };
}

/** Sent after a password or email change, so an owner whose session was stolen learns of it (ASVS 2.2.3). */
export function accountChangedMail(options: {
  to: string;
  change: "password" | "email";
  publicUrl: string;
}): OutgoingMail {
  const what =
    options.change === "password"
      ? "The password of your account was changed."
      : "The email address of your account was changed.";
  const subject = options.change === "password" ? "Your password was changed" : "Your account email was changed";
  const forgotUrl = `${options.publicUrl}/forgot`;
  const help = "If this was you, there is nothing to do. If not, reset your password now and contact our support.";
  return paragraphsMail({ to: options.to, subject, paragraphs: [what, help, forgotUrl], links: [forgotUrl] });
}

/**
 * Many wrong two-factor codes followed a right password: whoever typed them knows the password. Sent once
 * per hour the limit trips; it says nothing about where the attempts came from.
 */
export function twoFactorLimitMail(options: { to: string; publicUrl: string }): OutgoingMail {
  const subject = "Many wrong sign-in codes for your account";
  const what =
    "Someone entered your password correctly, then many wrong codes from your authenticator app. " +
    "Signing in to your account with a code is paused for up to an hour.";
  const help =
    "If this was you, wait and try again with the code your app shows. If not, someone knows your password: " +
    "choose a new one now and tell the store's owner.";
  const forgotUrl = `${options.publicUrl}/forgot`;
  return paragraphsMail({ to: options.to, subject, paragraphs: [what, help, forgotUrl], links: [forgotUrl] });
}

/**
 * A request on an order was resolved. Like the order mail it carries the order link, not the new
 * credentials or staff's words: mail is stored and forwarded in many places.
 */
export function requestResolvedMail(options: {
  to: string;
  orderId: string;
  productTitle: string;
  kind: "replacement" | "other";
  outcome: "completed" | "rejected";
  publicUrl: string;
}): OutgoingMail {
  const orderUrl = `${options.publicUrl}/find-order?id=${encodeURIComponent(options.orderId)}`;
  const what = options.kind === "replacement" ? "replacement request" : "request";
  const subject =
    options.kind === "replacement"
      ? options.outcome === "completed"
        ? `Your replacement for ${options.productTitle} is ready`
        : `Your replacement request for ${options.productTitle} was declined`
      : `We answered your request about ${options.productTitle}`;
  const outcome =
    options.kind === "replacement" && options.outcome === "completed"
      ? `Your ${what} for ${options.productTitle} is complete: the new credentials are on your order.`
      : options.outcome === "rejected"
        ? `Your ${what} for ${options.productTitle} was declined. The reason is on your order.`
        : `We answered your ${what} about ${options.productTitle}. The answer is on your order.`;
  const signIn = "Sign in to see your requests and their answers on the order.";
  return paragraphsMail({
    to: options.to,
    subject,
    paragraphs: [outcome, `Your order: ${orderUrl}`, signIn],
    links: [orderUrl],
    orderId: options.orderId,
  });
}
