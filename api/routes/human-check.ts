import { z } from "@hono/zod-openapi";
import { humanCheckChallengeSchema } from "../../contract/answers/human-check";
import { ok } from "../http";
import { BAD_INPUT, answers, apiRouter, declareRoute } from "../openapi";
import { issueChallenge } from "../services/guards/human-check";

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
  declareRoute(["Accounts"], {
    method: "get",
    path: "/challenge",
    summary: "A human-check challenge for a guarded form",
    request: { query: challengeQuery },
    responses: answers(200, humanCheckChallengeSchema, "the challenge", BAD_INPUT),
  }),
  (c) => ok(c, issueChallenge(c.get("config"), new Date(), { visible: c.req.valid("query").visible === "true" })),
);
