import { z } from "@hono/zod-openapi";
import {
  announcementSchema,
  documentListSchema,
  faqListSchema,
  gatewayListSchema,
  socialLinkListSchema,
} from "../../contract/answers/content";
import { ok } from "../http";
import { BAD_INPUT, answers, apiRouter, declareRoute } from "../openapi";
import { listDocuments, listFaqs, listSocialLinks, readAnnouncement } from "../services/content/shop";
import { listCheckoutGateways } from "../services/payments/checkout";

const documentQuerySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Document name must not be empty")
    .max(100, "Document name is too long")
    .regex(/^[a-z0-9-]+$/, "Document names are lowercase words joined by hyphens")
    .optional()
    .openapi({ description: "only this document, e.g. `terms-of-service`; an unknown name answers `[]`" }),
});

export const contentRoutes = apiRouter()
  .openapi(
    declareRoute(["Content"], {
      method: "get",
      path: "/announcement/read",
      summary: "The newest active announcement",
      responses: answers(200, announcementSchema, "the announcement, or null"),
    }),
    async (c) => ok(c, await readAnnouncement(c.get("db"))),
  )
  .openapi(
    declareRoute(["Content"], {
      method: "get",
      path: "/payment_gateway/read",
      summary: "Every payment gateway by position",
      responses: answers(200, gatewayListSchema, "the gateways"),
    }),
    async (c) => ok(c, await listCheckoutGateways(c.get("db"), c.get("config"))),
  )
  .openapi(
    declareRoute(["Content"], {
      method: "get",
      path: "/faq/read",
      summary: "Questions and answers by position",
      responses: answers(200, faqListSchema, "FAQs"),
    }),
    async (c) => ok(c, await listFaqs(c.get("db"))),
  )
  .openapi(
    declareRoute(["Content"], {
      method: "get",
      path: "/social_link/read",
      summary: "Social links by position",
      responses: answers(200, socialLinkListSchema, "links"),
    }),
    async (c) => ok(c, await listSocialLinks(c.get("db"))),
  )
  .openapi(
    declareRoute(["Content"], {
      method: "get",
      path: "/doc/read",
      summary: "Legal documents by name (plain text, paragraphs separated by blank lines)",
      request: { query: documentQuerySchema },
      responses: answers(200, documentListSchema, "the documents", BAD_INPUT),
    }),
    async (c) => ok(c, await listDocuments(c.get("db"), c.req.valid("query").name)),
  );
