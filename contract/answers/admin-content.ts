import { z } from "zod";
import { GATEWAY_NAMES, LEGAL_DOCUMENT_NAMES } from "../admin-content";
import { isoDateSchema } from "./common";

/* The back office's content (/v1/admin/content, /faqs, /social-links, /announcement, /documents) and payment
 * gateways (/v1/admin/gateways), ADR 031. */

/** A question of the FAQ with its answer (also what adding or editing one answers). */
export const adminFaqSchema = z.object({ _id: z.string(), question: z.string(), answer: z.string() });
export type AdminFaq = z.infer<typeof adminFaqSchema>;

/** A social link of the footer (also what adding or editing one answers). */
export const adminSocialLinkSchema = z.object({ _id: z.string(), name: z.string(), link: z.string() });
export type AdminSocialLink = z.infer<typeof adminSocialLinkSchema>;

/** The FAQ, the social links, the announcement and the legal documents, as staff edit them (GET /v1/admin/content). */
export const adminContentSchema = z.object({
  faqs: z.array(adminFaqSchema),
  socialLinks: z.array(adminSocialLinkSchema),
  announcement: z.object({ text: z.string(), active: z.boolean() }),
  documents: z.array(
    z.object({
      name: z.enum(LEGAL_DOCUMENT_NAMES),
      title: z.string(),
      path: z.string(),
      text: z.string().describe("empty: the store's built-in text is shown"),
      updatedAt: isoDateSchema.nullable(),
    }),
  ),
});
export type AdminContent = z.infer<typeof adminContentSchema>;

/** Whether a question or link moved one place (POST …/{id}/move): at either end it does not. */
export const rowMovedSchema = z.object({ moved: z.boolean(), label: z.string() });
export type RowMoved = z.infer<typeof rowMovedSchema>;

/** A deleted question or link (DELETE /v1/admin/faqs/{faqId}, /v1/admin/social-links/{linkId}). */
export const rowDeletedSchema = z.object({ label: z.string() });
export type RowDeleted = z.infer<typeof rowDeletedSchema>;

/** Whether an announcement shows now (PUT /v1/admin/announcement). */
export const announcementSetSchema = z.object({ shown: z.boolean() });
export type AnnouncementSet = z.infer<typeof announcementSetSchema>;

/** A legal document saved (PUT /v1/admin/documents/{name}); `builtIn`: the store's built-in text shows again. */
export const documentSetSchema = z.object({ title: z.string(), builtIn: z.boolean() });
export type DocumentSet = z.infer<typeof documentSetSchema>;

/** A payment gateway as the owner sees it (also what switching one answers). */
export const adminGatewaySchema = z.object({
  name: z.enum(GATEWAY_NAMES),
  label: z.string(),
  enabled: z.boolean(),
  configured: z.boolean().describe("its keys are in this server's environment"),
  offered: z.boolean().describe("checkout offers it now: enabled and configured"),
});
export type AdminGateway = z.infer<typeof adminGatewaySchema>;

/** Every payment gateway (GET /v1/admin/gateways). */
export const adminGatewaysSchema = z.array(adminGatewaySchema);
