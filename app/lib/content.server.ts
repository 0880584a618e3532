import type { AppLoadContext } from "@remix-run/node";
import type { z } from "zod";
import { announcementSchema, documentListSchema, faqListSchema } from "../../contract/answers/content";
import { type LegalDocumentName, builtInDocuments } from "./default-documents.server";
import { apiCall } from "./api.server";

/*
 * The /v1 client for the store's editorial content: the announcement, the FAQ and the legal
 * documents. These are public reads that never block a page: a failed call falls back to
 * nothing (announcement) or to the built-in text (FAQ, documents), as the spec asks.
 */

export type Faq = { _id: string; question: string; answer: string };
export type LegalDocument = { name: LegalDocumentName; title: string; paragraphs: string[]; builtIn: boolean };

/** Runs a read and turns any failure (4xx, 5xx, a broken answer, no API) into `null`. */
async function readOrNull<S extends z.ZodTypeAny>(context: AppLoadContext, path: string, answer: S) {
  try {
    const result = await apiCall(context, { path, answer });
    return result.ok ? (result.payload as z.output<S>) : null;
  } catch {
    return null;
  }
}

/** The newest active announcement's text, or null when there is none (or the call failed). */
export async function readAnnouncement(context: AppLoadContext): Promise<string | null> {
  const announcement = await readOrNull(context, "/v1/announcement/read", announcementSchema);
  const text = announcement?.text.trim();
  return text ? text : null;
}

export const DEFAULT_FAQS: readonly Faq[] = [
  {
    _id: "default-delivery",
    question: "How fast is delivery?",
    answer:
      "Most products are delivered automatically the moment your payment is confirmed: the account details appear on your order page and in the confirmation email. Products marked for manual delivery are sent by our team, usually within a few hours.",
  },
  {
    _id: "default-find-order",
    question: "Where do I find my order?",
    answer:
      "Open Find Order and enter the order id from your confirmation email (check the spam folder too). Signed-in customers also see every order on their dashboard.",
  },
  {
    _id: "default-warranty",
    question: "What if an account stops working?",
    answer:
      "Every purchase includes the warranty period you chose. While it lasts, request a replacement from the order page and a working account is delivered, in most cases instantly.",
  },
  {
    _id: "default-payment",
    question: "Which payment methods do you accept?",
    answer:
      "Cryptocurrencies such as Bitcoin, Ethereum and Litecoin, PayPal, credit and debit cards, and your prepaid store balance.",
  },
  {
    _id: "default-support",
    question: "How do I contact support?",
    answer:
      "Sign in and open a support ticket; you can attach it to an order so we see the details straight away. We reply within 24 hours, usually much sooner.",
  },
];

/**
 * The FAQ to show. Entries without a question or an answer help nobody, so they are left out;
 * when the server gives nothing usable (a failure is `null`), the built-in list is shown instead.
 */
export function faqsToShow(entries: readonly Faq[] | null): Faq[] {
  const answered = (entries ?? []).filter((entry) => entry.question.trim() !== "" && entry.answer.trim() !== "");
  return answered.length > 0 ? answered : [...DEFAULT_FAQS];
}

export async function readFaqs(context: AppLoadContext): Promise<Faq[]> {
  return faqsToShow(await readOrNull(context, "/v1/faq/read", faqListSchema));
}

/** Splits a document's text into paragraphs at blank lines. */
export function paragraphsOf(text: string): string[] {
  return text
    .replace(/\r\n?/g, "\n")
    .split(/\n\s*\n/)
    .map((paragraph) => paragraph.trim())
    .filter((paragraph) => paragraph !== "");
}

/** A legal document from the server, or the built-in text when none is configured or the call fails. */
export async function readLegalDocument(context: AppLoadContext, name: LegalDocumentName): Promise<LegalDocument> {
  const documents = await readOrNull(context, `/v1/doc/read?name=${encodeURIComponent(name)}`, documentListSchema);
  const builtIn = builtInDocuments[name];
  const paragraphs = paragraphsOf(documents?.find((document) => document.name === name)?.description ?? "");
  if (paragraphs.length === 0)
    return { name, title: builtIn.title, paragraphs: paragraphsOf(builtIn.text), builtIn: true };
  return { name, title: builtIn.title, paragraphs, builtIn: false };
}
