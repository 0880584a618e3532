import { Hono } from "hono";
import type { ApiEnv } from "../context";
import { ok } from "../http";
import { issueChallenge } from "../services/human-check";

/**
 * The web layer asks for a challenge when it renders a guarded form: with the builtin check
 * it puts `token` in a hidden `g-recaptcha-response` field; with a provider it renders the
 * provider's widget for `siteKey`. It also renders the `honeypotField` input, hidden, and
 * refuses posts that fill it.
 */
export const humanCheckRoutes = new Hono<ApiEnv>().get("/challenge", (c) => ok(c, issueChallenge(c.get("config"))));
