import { createHmac, randomBytes, randomInt, timingSafeEqual } from "node:crypto";
import { sql } from "drizzle-orm";
import type { Config } from "../../config";
import type { Executor } from "../../db/client";
import { rateLimits } from "../../db/schema";
import { AppError } from "../../errors";
import type { Logger } from "../../logger";
import type { HumanCheckChallenge } from "../../../contract/answers/human-check";

/*
 * The human check guards guest registration, key redemption and replacement requests.
 * "builtin" needs no third party and no JavaScript: the API signs a challenge that the page
 * carries in a hidden field; a bot that posts at once, replays a token or forges one fails,
 * and the web layer adds a honeypot input. "recaptcha" and "turnstile" verify the widget's
 * answer with the provider. The rate limits stay in force whichever is used.
 *
 * A person must never be refused by a rule they cannot see (ADR 019): a form shown again after a
 * refusal asks a visible "question" instead (a sum with four choices, no JavaScript, no third party),
 * whatever the provider. Every choice is a token; only the right one verifies, and each question is
 * spent by its first answer, right or wrong, so it cannot be answered by trying every choice.
 */

/** Humans take a moment to fill a form; scripts posting at once do not. */
export const MIN_CHALLENGE_AGE_MS = 2_000;
export const MAX_CHALLENGE_AGE_MS = 2 * 60 * 60 * 1000;
/** The input the web layer renders hidden and refuses when filled; a name autofill leaves alone. */
export const HONEYPOT_FIELD = "name__confirm";
export const HUMAN_CHECK_FAILED = "Please complete the human check and try again.";
/** A visible question answered with a wrong choice: the person saw the check, so it is said (ADR 038). */
export const HUMAN_CHECK_WRONG_ANSWER = "That is not the right answer. Please answer the new question and send again.";
export const HUMAN_CHECK_REQUIRED =
  "This account has had many failed sign-ins. Please complete the human check and sign in again.";
/** The field every guarded form sends its answer in (the spec's name, whichever provider). */
export const HUMAN_CHECK_FIELD = "g-recaptcha-response";

export type HumanCheckResult = { ok: true } | { ok: false; reason: string };

/** The challenge a guarded form renders, as GET /v1/human-check/challenge declares it. */
export type HumanChallenge = HumanCheckChallenge;

function signature(secret: string, body: string): Buffer {
  return createHmac("sha256", secret).update(`human-check:${body}`).digest();
}

const questionSignature = (secret: string, body: string, answer: number) =>
  createHmac("sha256", secret).update(`human-check-question:${body}.${answer}`).digest();

const QUESTION_CHOICES = 4;

/** "What is a plus b?" with the sum among three other sums in 2..18, in ascending order (no position hint). */
function issueQuestion(config: Config, now: Date): HumanChallenge {
  const [a, b] = [randomInt(1, 10), randomInt(1, 10)];
  const sums = new Set([a + b]);
  while (sums.size < QUESTION_CHOICES) sums.add(randomInt(2, 19));
  const body = `${randomBytes(16).toString("base64url")}.${now.getTime()}`;
  // Every choice carries the signature of the right sum: only that choice verifies.
  const sealed = questionSignature(config.sessionSecrets[0], body, a + b).toString("base64url");
  const choices = [...sums]
    .sort((x, y) => x - y)
    .map((sum) => ({ label: String(sum), answer: `q.${body}.${sum}.${sealed}` }));
  return {
    provider: "question",
    token: null,
    question: { text: `What is ${a} plus ${b}?`, choices },
    honeypotField: HONEYPOT_FIELD,
  };
}

/**
 * What the page needs to render the check: a signed token (builtin) or the widget's site key; with
 * `visible`, a question a person answers (a form shown again after a refusal).
 */
export function issueChallenge(config: Config, now = new Date(), options: { visible?: boolean } = {}): HumanChallenge {
  if (options.visible) return issueQuestion(config, now);
  if (config.humanCheck.provider !== "builtin") {
    return {
      provider: config.humanCheck.provider,
      siteKey: config.humanCheck.siteKey,
      token: null,
      honeypotField: HONEYPOT_FIELD,
    };
  }
  const body = `${randomBytes(16).toString("base64url")}.${now.getTime()}`;
  const token = `${body}.${signature(config.sessionSecrets[0], body).toString("base64url")}`;
  return { provider: "builtin", token, honeypotField: HONEYPOT_FIELD };
}

/** Checks a human-check answer once; a builtin token is spent by a successful check. */
export async function verifyHumanCheck(
  deps: { db: Executor; config: Config; logger?: Logger },
  answer: string | undefined,
  options: { ip?: string; now?: Date } = {},
): Promise<HumanCheckResult> {
  if (!answer) return { ok: false, reason: "missing" };
  if (answer.startsWith("q."))
    return verifyQuestion(deps.db, deps.config.sessionSecrets, answer, options.now ?? new Date());
  const { humanCheck } = deps.config;
  if (humanCheck.provider === "builtin")
    return verifyBuiltin(deps.db, deps.config.sessionSecrets, answer, options.now ?? new Date());
  return verifyWithProvider(humanCheck, answer, options.ip, deps.logger);
}

/** The sentence of a refused check: a wrong choice is said as such, anything else asks for the check. */
export function humanCheckRefusal(result: { reason: string }, otherwise = HUMAN_CHECK_FAILED): string {
  return result.reason === "wrong-answer" ? HUMAN_CHECK_WRONG_ANSWER : otherwise;
}

/**
 * For the guarded endpoints (guest registration, key redemption, replacement requests):
 * a failed check is a 400 on the `g-recaptcha-response` field with `humanCheckRequired: true`, so a
 * page knows to ask its question (a too-fast post, ADR 038) rather than show an error.
 */
export async function assertHuman(
  deps: { db: Executor; config: Config; logger?: Logger },
  answer: string | undefined,
  options: { ip?: string; now?: Date } = {},
): Promise<void> {
  const result = await verifyHumanCheck(deps, answer, options);
  if (!result.ok) {
    deps.logger?.info("human check failed", { reason: result.reason });
    const message = humanCheckRefusal(result);
    throw new AppError(400, message, { [HUMAN_CHECK_FIELD]: [message] }, { humanCheckRequired: true });
  }
}

async function verifyBuiltin(db: Executor, secrets: string[], token: string, now: Date): Promise<HumanCheckResult> {
  const match = /^([A-Za-z0-9_-]{22})\.(\d{1,15})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, id, issuedAtText, givenSignature] = match;
  const body = `${id}.${issuedAtText}`;
  const given = Buffer.from(givenSignature, "base64url");
  // Any of the configured secrets: challenges survive a secret rotation.
  if (!secrets.some((secret) => timingSafeEqual(signature(secret, body), given)))
    return { ok: false, reason: "forged" };
  const age = now.getTime() - Number(issuedAtText);
  if (age < MIN_CHALLENGE_AGE_MS) return { ok: false, reason: "too-fast" };
  if (age > MAX_CHALLENGE_AGE_MS) return { ok: false, reason: "expired" };
  return (await spend(db, id, issuedAtText)) ? { ok: true } : { ok: false, reason: "reused" };
}

/** A question's answer: no minimum age (answering it is the proof), spent by its first answer. */
async function verifyQuestion(db: Executor, secrets: string[], token: string, now: Date): Promise<HumanCheckResult> {
  const match = /^q\.([A-Za-z0-9_-]{22})\.(\d{1,15})\.(\d{1,2})\.([A-Za-z0-9_-]{43})$/.exec(token);
  if (!match) return { ok: false, reason: "malformed" };
  const [, id, issuedAtText, chosenText, sealed] = match;
  if (now.getTime() - Number(issuedAtText) > MAX_CHALLENGE_AGE_MS) return { ok: false, reason: "expired" };
  if (!(await spend(db, id, issuedAtText))) return { ok: false, reason: "reused" };
  const given = Buffer.from(sealed, "base64url");
  const body = `${id}.${issuedAtText}`;
  const right = secrets.some((secret) => timingSafeEqual(questionSignature(secret, body, Number(chosenText)), given));
  return right ? { ok: true } : { ok: false, reason: "wrong-answer" };
}

/** Marks a challenge used; true for its first use only. */
async function spend(db: Executor, id: string, issuedAtText: string): Promise<boolean> {
  // A spent challenge is a row in rate_limits; the upsert is atomic, so of two racing uses only one sees 1.
  const [row] = await db
    .insert(rateLimits)
    .values({ key: `human-check:${id}`, windowStart: new Date(Number(issuedAtText)), hits: 1 })
    .onConflictDoUpdate({
      target: [rateLimits.key, rateLimits.windowStart],
      set: { hits: sql`${rateLimits.hits} + 1` },
    })
    .returning({ hits: rateLimits.hits });
  return row.hits === 1;
}

const providerAnswer = {
  parse(value: unknown): { success: boolean; score?: number; errorCodes: string[] } {
    const body = (value ?? {}) as { success?: unknown; score?: unknown; "error-codes"?: unknown };
    return {
      success: body.success === true,
      score: typeof body.score === "number" ? body.score : undefined,
      errorCodes: Array.isArray(body["error-codes"]) ? body["error-codes"].map(String) : [],
    };
  },
};

/** reCAPTCHA v3 scores 0 (bot) to 1 (human); v2 and Turnstile answer without a score. */
const MIN_RECAPTCHA_SCORE = 0.5;

async function verifyWithProvider(
  settings: { provider: "recaptcha" | "turnstile"; secret: string; verifyUrl: string },
  answer: string,
  ip: string | undefined,
  logger: Logger | undefined,
): Promise<HumanCheckResult> {
  const form = new URLSearchParams({ secret: settings.secret, response: answer.slice(0, 4096) });
  if (ip) form.set("remoteip", ip);
  try {
    const response = await fetch(settings.verifyUrl, {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: form,
      signal: AbortSignal.timeout(5_000),
    });
    if (!response.ok) throw new Error(`siteverify answered ${response.status}`);
    const verdict = providerAnswer.parse(await response.json());
    if (!verdict.success) return { ok: false, reason: verdict.errorCodes.join(",") || "refused" };
    if (verdict.score !== undefined && verdict.score < MIN_RECAPTCHA_SCORE) return { ok: false, reason: "low-score" };
    return { ok: true };
  } catch (error) {
    // Fail closed: an unreachable provider must not open the door to bots.
    logger?.warn("human check provider unreachable", { provider: settings.provider, error });
    return { ok: false, reason: "unavailable" };
  }
}
