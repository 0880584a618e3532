import { describe, expect, it } from "vitest";
import { mailHtml, markup, paragraph, paragraphsMail } from "../../api/mail/layout";
import { requestResolvedMail, resetCodeMail } from "../../api/mail/templates";
import { operatorNoticeMail } from "../../api/services/notifications/operator-mail";
import { orderConfirmationMail } from "../../api/services/orders/mail";
import { guestTicketAnswerMail, ticketReplyMail } from "../../api/services/support/ticket-mail";

/* One mail layout (issue 28): every mail's HTML comes from api/mail/layout.ts, which escapes whatever it is given. */

const HOSTILE = `<script>alert(1)</script><img src=x onerror=alert(2)> "quoted" & 'single'`;
const ESCAPED =
  "&lt;script&gt;alert(1)&lt;/script&gt;&lt;img src=x onerror=alert(2)&gt; &quot;quoted&quot; &amp; &#39;single&#39;";

/** The markup a mail may hold: the layout's own tags and nothing a customer or product could have written. */
function expectNoInjectedMarkup(body: string) {
  expect(body).not.toMatch(/<script|<img/i);
}

describe("the mail layout", () => {
  it("escapes every value put into a template, and keeps markup it made itself", () => {
    const inner = markup`<strong>${HOSTILE}</strong>`;
    expect(markup`<p>${inner}${[markup`<br>`, "<i>"]}</p>`.value).toBe(
      `<p><strong>${ESCAPED}</strong><br>&lt;i&gt;</p>`,
    );
    expect(mailHtml(HOSTILE, [paragraph(HOSTILE)])).toContain(`<title>${ESCAPED}</title>`);
  });

  it("makes links of the addresses it is told about only, and keeps line breaks", () => {
    const mine = "https://store.example/find-order?id=a&b";
    const theirs = "https://evil.example/";
    const block = paragraph(`See ${mine}\nnot ${theirs}`, [mine]).value;
    expect(block).toContain('<a href="https://store.example/find-order?id=a&amp;b">');
    expect(block).toContain("<br>not https://evil.example/");
    expect(block).not.toContain(`href="${theirs}"`);
  });

  it("gives every mail the same look, with text and HTML saying the same", () => {
    const mail = paragraphsMail({ to: "a@example.com", subject: "Hello", paragraphs: ["One", "Two"] });
    expect(mail.text).toBe("One\n\nTwo");
    expect(mail.html).toMatch(/^<!doctype html>\n<html lang="en">/);
    expect(mail.html).toContain('<p style="margin:0 0 16px">One</p>\n<p style="margin:0 0 16px">Two</p>');
  });
});

describe("every mail the store writes", () => {
  const publicUrl = "https://store.example";
  const mails = [
    ticketReplyMail({ to: "a@example.com", ticketId: "t1", subject: HOSTILE, publicUrl }),
    guestTicketAnswerMail({ to: "a@example.com", subject: HOSTILE, answer: `${HOSTILE}\nline two`, link: publicUrl }),
    requestResolvedMail({
      to: "a@example.com",
      orderId: "o1",
      productTitle: HOSTILE,
      kind: "other",
      outcome: "completed",
      publicUrl,
    }),
    orderConfirmationMail({
      to: "a@example.com",
      orderId: "o1",
      publicUrl,
      status: "completed",
      lines: [{ title: HOSTILE, subtitle: HOSTILE, quantity: 1, delivered: 1, manual: false }],
      priceCents: 1299,
      refundedCents: 0,
      autoCreatedAccount: false,
    }),
    operatorNoticeMail({
      to: "owner@example.com",
      publicUrl,
      notice: {
        event: "stock.sold_out",
        key: "k",
        data: { productId: "p", optionId: "o", product: HOSTILE, option: HOSTILE },
      },
    }),
    resetCodeMail({ to: "a@example.com", code: "<b>123456</b>", publicUrl, validMinutes: 15 }),
  ];

  it("escapes what customers, staff and products wrote, and keeps it whole in the text part", () => {
    for (const mail of mails) {
      expectNoInjectedMarkup(mail.html ?? "");
      expect(mail.html).toMatch(/^<!doctype html>/);
      expect(mail.html).toContain("max-width:560px");
    }
    expect(mails[1].html).toContain(`${ESCAPED}<br>line two`);
    expect(mails[1].text).toContain(HOSTILE);
    expect(mails[5].html).toContain("&lt;b&gt;123456&lt;/b&gt;");
  });
});

describe("the order mail of a guest checkout", () => {
  it("says the account exists and how to set its password, so nobody tries Create Account (issue 38)", () => {
    const mail = orderConfirmationMail({
      to: "guest@example.com",
      orderId: "o1",
      publicUrl: "https://store.example",
      status: "completed",
      lines: [{ title: "Netflix", subtitle: "", quantity: 1, delivered: 1, manual: false }],
      priceCents: 1299,
      refundedCents: 0,
      autoCreatedAccount: true,
    });
    expect(mail.text).toContain("We created an account for guest@example.com with this order");
    expect(mail.text).toContain("no need to create one");
    expect(mail.text).toContain("set its password at https://store.example/forgot");
  });
});
