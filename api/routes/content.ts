import { Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { ok, validate } from "../http";
import { listDocuments, listFaqs, listSocialLinks, readAnnouncement } from "../services/content";
import { listCheckoutGateways } from "../services/payments";

const documentQuerySchema = z.object({
  name: z
    .string()
    .trim()
    .min(1, "Document name must not be empty")
    .max(100, "Document name is too long")
    .regex(/^[a-z0-9-]+$/, "Document names are lowercase words joined by hyphens")
    .optional(),
});

export const contentRoutes = new Hono<ApiEnv>()
  .get("/announcement/read", async (c) => ok(c, await readAnnouncement(c.get("db"))))
  .get("/payment_gateway/read", async (c) => ok(c, await listCheckoutGateways(c.get("db"), c.get("config"))))
  .get("/faq/read", async (c) => ok(c, await listFaqs(c.get("db"))))
  .get("/social_link/read", async (c) => ok(c, await listSocialLinks(c.get("db"))))
  .get("/doc/read", async (c) => {
    const { name } = validate(documentQuerySchema, c.req.query());
    return ok(c, await listDocuments(c.get("db"), name));
  });
