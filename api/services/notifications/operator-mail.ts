import { NOTIFICATION_EVENT_LABELS } from "../../../contract/notifications";
import { mailHtml, markup, paragraph } from "../../mail/layout";
import type { OutgoingMail } from "../../mail/outbox";
import type { OperatorNotice } from "./operator-notices";

const usd = (amount: number, currency = "USD") => `${amount.toFixed(2)} ${currency}`;
const short = (id: string | null) => (id ? id.slice(0, 8) : "none");

type Line = { product: string; option: string; warranty: string; quantity: number };
const lineText = (line: Line) =>
  `${line.quantity} × ${line.product}${line.option ? ` — ${line.option}` : ""}${line.warranty ? ` (${line.warranty})` : ""}`;

/** The subject and the facts of a notice, one per line. */
function describe(notice: OperatorNotice): { subject: string; facts: string[] } {
  switch (notice.event) {
    case "order.paid": {
      const { data } = notice;
      return {
        subject: `Order paid: ${usd(data.total, data.currency)} (${short(data.orderId)})`,
        facts: [
          `Order: ${data.orderId}`,
          `Status: ${data.status}`,
          `Paid with: ${data.paymentMethod}`,
          `Total: ${usd(data.total, data.currency)}`,
          ...(data.refunded > 0 ? [`Credited to the customer's balance (sold out): ${usd(data.refunded)}`] : []),
          ...data.lines.map(
            (line) =>
              `${lineText(line)}: ${line.manual ? "waits for manual delivery" : `${line.delivered} of ${line.quantity} delivered`}`,
          ),
        ],
      };
    }
    case "order.manual_delivery":
      return {
        subject: `Deliver by hand: order ${short(notice.data.orderId)}`,
        facts: [`Order: ${notice.data.orderId}`, ...notice.data.lines.map(lineText)],
      };
    case "stock.low":
      return {
        subject: `Low stock: ${notice.data.product} — ${notice.data.option} (${notice.data.available} left)`,
        facts: [
          `Product: ${notice.data.product}`,
          `Option: ${notice.data.option}`,
          `Available: ${notice.data.available} (threshold ${notice.data.threshold})`,
        ],
      };
    case "stock.sold_out":
      return {
        subject: `Sold out: ${notice.data.product} — ${notice.data.option}`,
        facts: [`Product: ${notice.data.product}`, `Option: ${notice.data.option}`, "Available: 0"],
      };
    case "ticket.opened":
    case "ticket.reply":
      return {
        subject: `${notice.event === "ticket.opened" ? "New ticket" : "Customer replied"}: ticket ${short(notice.data.ticketId)}`,
        facts: [`Ticket: ${notice.data.ticketId}`, `Order: ${notice.data.orderId ?? "none (general question)"}`],
      };
    case "request.created":
      return {
        subject: `New ${notice.data.kind === "replacement" ? "replacement request" : "request"}: ${notice.data.product}`,
        facts: [
          `Request: ${notice.data.requestId}`,
          `Order: ${notice.data.orderId}`,
          `Product: ${notice.data.product}`,
          notice.data.status === "completed"
            ? "Replaced automatically from stock."
            : "Waits for staff in the request queue.",
        ],
      };
    case "payment.amount_mismatch":
      return {
        subject: `Payment refused: amount mismatch (${notice.data.gateway})`,
        facts: [
          `Payment: ${notice.data.paymentId} (${notice.data.purpose})`,
          `Order: ${notice.data.orderId ?? "none"}`,
          `Expected: ${usd(notice.data.expected.amount, notice.data.expected.currency)}`,
          `Received: ${usd(notice.data.received.amount, notice.data.received.currency)}`,
          `Provider event: ${notice.data.providerEventId}`,
          "Nothing was delivered or credited. Check the payment with the provider.",
        ],
      };
    case "payment.late":
      return {
        subject: `Late payment honoured (${notice.data.gateway}): ${usd(notice.data.amount, notice.data.currency)}`,
        facts: [
          `Payment: ${notice.data.paymentId} (${notice.data.purpose}), was ${notice.data.previousStatus}`,
          `Order: ${notice.data.orderId ?? "none"}`,
          `Amount: ${usd(notice.data.amount, notice.data.currency)}`,
          "What was still in stock was delivered; the rest was credited to the customer's balance.",
        ],
      };
  }
}

/** The operator's mail about one notice: the event's name, its facts, and the back office's address. */
export function operatorNoticeMail(input: { to: string; publicUrl: string; notice: OperatorNotice }): OutgoingMail {
  const { subject, facts } = describe(input.notice);
  const label = NOTIFICATION_EVENT_LABELS[input.notice.event];
  const adminUrl = `${input.publicUrl}/admin`;
  const footer = `Choose which events are mailed at ${adminUrl}/notifications.`;
  const text = [`${label}.`, facts.join("\n"), `Back office: ${adminUrl}`, footer].join("\n\n");
  const html = mailHtml(subject, [
    paragraph(markup`<strong>${label}.</strong>`),
    markup`<ul style="margin:0 0 16px;padding-left:20px">${facts.map((fact) => markup`<li>${fact}</li>`)}</ul>`,
    paragraph(`Back office: ${adminUrl}`, [adminUrl]),
    markup`<p style="margin:0 0 16px;color:#555">${footer}</p>`,
  ]);
  return { to: input.to, subject: `[Store] ${subject}`, text, html };
}
