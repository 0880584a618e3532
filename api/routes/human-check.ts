import { createRoute, z } from "@hono/zod-openapi";
import { ok } from "../http";
import { BAD_INPUT, answers, apiRouter } from "../openapi";
import { issueChallenge } from "../services/human-check";

const challengeSchema = z.object({
  provider: z.enum(["builtin", "question", "recaptcha", "turnstile"]),
  token: z.string().nullable().openapi({ description: "builtin: the answer to put in `g-recaptcha-response`" }),
  siteKey: z.string().optional().openapi({ description: "a provider's widget key" }),
  question: z
    .object({
      text: z.string(),
      choices: z.array(z.object({ label: z.string(), answer: z.string() })),
    })
    .optional()
    .openapi({ description: "question: show `text`; the chosen choice's `answer` goes in `g-recaptcha-response`" }),
  honeypotField: z.string().openapi({ description: "the hidden input a human leaves empty" }),
});

const challengeQuery = z.object({
  visible: z
    .enum(["true", "false"])
    .optional()
    .openapi({ description: "`true`: a question a person answers, for a form shown again after a refusal" }),
});

/**
 * The web layer asks for a challenge when it renders a guarded form: with the builtin check
 * it puts `token` in a hidden `g-recaptcha-response` field; with a provider it renders the
 * provider's widget for `siteKey`; with `visible=true` it gets a question whose choices each
 * carry an answer for `g-recaptcha-response`. It also renders the `honeypotField` input, hidden,
 * and refuses posts that fill it.
 */
export const humanCheckRoutes = apiRouter().openapi(
  createRoute({
    method: "get",
    path: "/challenge",
    tags: ["Accounts"],
    summary: "A human-check challenge for a guarded form",
    request: { query: challengeQuery },
    responses: answers(200, challengeSchema, "the challenge", BAD_INPUT),
  }),
  (c) => ok(c, issueChallenge(c.get("config"), new Date(), { visible: c.req.valid("query").visible === "true" })),
);
