/*
 * The legal texts shown until the store's owner configures their own (documents named
 * terms-of-service and privacy-policy in the admin). Same format as the server's documents:
 * paragraphs separated by blank lines, "## " starts a heading, "- " lines form a list.
 * Server-only, so this text never travels in the client bundle.
 */

export type LegalDocumentName = "terms-of-service" | "privacy-policy";

export const builtInDocuments: Record<LegalDocumentName, { title: string; text: string }> = {
  "terms-of-service": {
    title: "Terms of Service",
    text: `These terms apply to every purchase from this store and to every use of its website. By placing an order or creating an account you agree to them.

## What we sell

We sell access to digital subscriptions and premium accounts. Each product lists its options, the warranty durations on offer and their prices. The product page tells you whether delivery is automatic or handled by our team.

## Orders and delivery

An order is confirmed once its payment is confirmed. Automatic products are delivered at once on the order page and by email; manual products are delivered by our team, usually within a few hours. Keep your order id: together with your email it is how you and our support find the order.

## Prices and payment

Prices are shown in US dollars and are charged in full when you check out. Coupon codes and store balance reduce the amount due. Payments are handled by the payment provider you choose; we never see your full card details.

## Warranty and replacements

Each item carries the warranty duration you selected. If an account stops working during that period because of a problem on our side, request a replacement from the order page and we deliver a working one. The warranty does not cover changes you make to an account (such as its password, email or plan) or use that breaks the provider's rules.

## Refunds

Because digital goods are delivered instantly, a purchase is not refundable once delivered, except where we cannot deliver or replace it. In that case the amount is returned to your store balance or, on request, to the original payment method.

## Your account

Keep your password private; you are responsible for what happens under your account. We may suspend accounts involved in fraud, chargeback abuse or reselling in breach of these terms.

## Liability

We do our best to keep the store available and the products working, but the products are provided by third parties and we cannot guarantee their services. Our liability for any order is limited to the amount you paid for it.

## Changes

We may update these terms. The version shown here applies to orders placed from the day it is published.

## Contact

Questions about these terms are welcome: sign in and open a support ticket and we reply within 24 hours.`,
  },
  "privacy-policy": {
    title: "Privacy Policy",
    text: `This policy explains what personal data the store keeps, why, and what you can ask us to do with it.

## What we collect

- Your email address, to deliver orders, send receipts and let you sign in.
- Your orders, tickets, feedback and balance history, to provide the service and support.
- Technical data such as your IP address and browser type, kept briefly to protect the store against fraud and abuse.

## What we do not collect

We do not receive or store your full card details: payments are handled by the payment provider you choose. We do not sell your data, and we use no advertising trackers.

## Cookies

We use only the cookies the store needs to work: one that keeps you signed in, one that remembers your cart, one that remembers an announcement you dismissed, and short-lived ones for messages shown after an action. None of them tracks you across other websites.

## Who else sees your data

Payment providers receive what they need to process a payment. Our email provider delivers the messages we send you. Nobody else receives your data unless the law requires it.

## Changes

We may update this policy. The version shown here is the one in force.`,
  },
};
