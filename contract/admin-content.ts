import { z } from "zod";
import { optionalText } from "./account";
import { CHECKOUT_PAYMENT_METHODS } from "./browser/order";

/*
 * The store's content and payment gateways in the back office (ADR 031): the FAQ, the announcement,
 * the footer's social links and the legal documents (area `content`), and which gateways checkout
 * offers (area `gateways`, owners). Shared by the API's validation and the back office's forms.
 */

export const FAQ_QUESTION_MAX = 300;
export const FAQ_ANSWER_MAX = 5_000;
export const ANNOUNCEMENT_MAX = 500;
export const SOCIAL_NAME_MAX = 40;
export const SOCIAL_LINK_MAX = 500;
export const DOCUMENT_MAX = 100_000;

/** The documents the storefront shows, by the name it reads them with. */
export const LEGAL_DOCUMENTS = [
  { name: "terms-of-service", title: "Terms of Service", path: "/terms-of-service" },
  { name: "privacy-policy", title: "Privacy Policy", path: "/privacy-policy" },
] as const;
export type LegalDocumentName = (typeof LEGAL_DOCUMENTS)[number]["name"];
export const LEGAL_DOCUMENT_NAMES = LEGAL_DOCUMENTS.map((document) => document.name) as [
  LegalDocumentName,
  ...LegalDocumentName[],
];

/** The gateways staff turn on and off: every way a checkout can pay. */
export const GATEWAY_NAMES = CHECKOUT_PAYMENT_METHODS;
export type GatewayName = (typeof GATEWAY_NAMES)[number];

export const CONTENT_MESSAGES = {
  faqNotFound: "This question does not exist (it may have been deleted already)",
  socialLinkNotFound: "This link does not exist (it may have been deleted already)",
  gatewayNotFound: "There is no such payment gateway",
  documentNotFound: "There is no such document",
  gatewayNotConfigured:
    "This gateway has no API key and webhook secret in the server's environment: it cannot be offered until it has",
} as const;

const text = (label: string, max: number) =>
  z
    .string({ required_error: `Please enter the ${label}`, invalid_type_error: `Please enter the ${label}` })
    .trim()
    .min(1, `Please enter the ${label}`)
    .max(max, `The ${label} is at most ${max.toLocaleString("en-US")} characters`);

export const faqSchema = z.object({
  question: text("question", FAQ_QUESTION_MAX),
  answer: text("answer", FAQ_ANSWER_MAX),
});

export const moveSchema = z.object({
  direction: z.enum(["up", "down"], { errorMap: () => ({ message: "Choose up or down" }) }),
});

const LINK_PROBLEM = "Enter a full web address starting with https:// (or http://)";
export const socialLinkSchema = z.object({
  name: text("name", SOCIAL_NAME_MAX),
  link: z
    .string({ required_error: LINK_PROBLEM, invalid_type_error: LINK_PROBLEM })
    .trim()
    .max(SOCIAL_LINK_MAX, `A web address is at most ${SOCIAL_LINK_MAX} characters`)
    .url(LINK_PROBLEM)
    .refine((link) => /^https?:\/\//i.test(link), LINK_PROBLEM),
});

/** An empty text, or `active` off, takes the announcement down. */
export const announcementSchema = z.object({
  text: optionalText(
    "The announcement is text",
    ANNOUNCEMENT_MAX,
    `The announcement is at most ${ANNOUNCEMENT_MAX} characters`,
  ),
  active: z.boolean({ invalid_type_error: "Choose whether the announcement shows" }).default(true),
});

/** An empty text goes back to the store's built-in document. */
export const documentSchema = z.object({
  text: z
    .string({ invalid_type_error: "The document is text" })
    .max(DOCUMENT_MAX, `A document is at most ${DOCUMENT_MAX.toLocaleString("en-US")} characters`)
    .default(""),
});

export const gatewaySwitchSchema = z.object({
  enabled: z.boolean({ required_error: "Choose on or off", invalid_type_error: "Choose on or off" }),
});
