import { z } from "zod";

/* GET /v1/human-check/challenge: what a page needs to render the human check of a guarded form. */

const honeypotField = z.string().describe("the hidden input a human leaves empty");

export const humanCheckChallengeSchema = z.discriminatedUnion("provider", [
  z.object({
    provider: z.literal("builtin"),
    token: z.string().describe("the answer to put in `g-recaptcha-response`"),
    honeypotField,
  }),
  z.object({
    provider: z.literal("question"),
    token: z.null(),
    question: z
      .object({ text: z.string(), choices: z.array(z.object({ label: z.string(), answer: z.string() })) })
      .describe("show `text`; the chosen choice's `answer` goes in `g-recaptcha-response`"),
    honeypotField,
  }),
  z.object({
    provider: z.enum(["recaptcha", "turnstile"]),
    siteKey: z.string().describe("the provider's widget key"),
    token: z.null(),
    honeypotField,
  }),
]);
export type HumanCheckChallenge = z.infer<typeof humanCheckChallengeSchema>;
