import { z } from "zod";
import { publicIdSchema } from "./common";

/* The store's editorial content and payment gateways (GET /v1/announcement/read, /faq/read, ...). */

export const announcementSchema = z.object({ text: z.string() }).nullable();

export const gatewaySchema = z.object({
  name: z.string(),
  label: z.string(),
  status: z.boolean().describe("enabled in the database and usable here"),
});
export type PaymentGateway = z.infer<typeof gatewaySchema>;
export const gatewayListSchema = z.array(gatewaySchema);

export const faqListSchema = z.array(
  z.object({
    _id: publicIdSchema,
    id: publicIdSchema.describe("the same as `_id`: the spec's FAQ names it `id`"),
    question: z.string(),
    answer: z.string(),
  }),
);

export const socialLinkSchema = z.object({ _id: publicIdSchema, name: z.string(), link: z.string() });
export type SocialLink = z.infer<typeof socialLinkSchema>;
export const socialLinkListSchema = z.array(socialLinkSchema);

export const documentListSchema = z.array(
  z.object({
    _id: publicIdSchema,
    name: z.string(),
    description: z.string().describe("plain text, paragraphs separated by blank lines"),
  }),
);
