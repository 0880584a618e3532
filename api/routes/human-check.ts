import { createRoute, z } from "@hono/zod-openapi";
import { ok } from "../http";
import { answers, apiRouter } from "../openapi";
import { issueChallenge } from "../services/human-check";

const challengeSchema = z.object({
  provider: z.enum(["builtin", "recaptcha", "turnstile"]),
  token: z.string().nullable().openapi({ description: "builtin: the answer to put in `g-recaptcha-response`" }),
  siteKey: z.string().optional().openapi({ description: "a provider's widget key" }),
  honeypotField: z.string().openapi({ description: "the hidden input a human leaves empty" }),
});

/**
 * The web layer asks for a challenge when it renders a guarded form: with the builtin check
 * it puts `token` in a hidden `g-recaptcha-response` field; with a provider it renders the
 * provider's widget for `siteKey`. It also renders the `honeypotField` input, hidden, and
 * refuses posts that fill it.
 */
export const humanCheckRoutes = apiRouter().openapi(
  createRoute({
    method: "get",
    path: "/challenge",
    tags: ["Accounts"],
    summary: "A human-check challenge for a guarded form",
    responses: answers(200, challengeSchema, "the challenge"),
  }),
  (c) => ok(c, issueChallenge(c.get("config"))),
);
