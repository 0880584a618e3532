import { type IncomingMessage, type Server, createServer } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "../../api/config";
import {
  HONEYPOT_FIELD,
  HUMAN_CHECK_FAILED,
  HUMAN_CHECK_WRONG_ANSWER,
  issueChallenge,
  verifyHumanCheck,
} from "../../api/services/guards/human-check";
import { type AccountsTestApi, createAccountsTestApi } from "../support/accounts";

let t: AccountsTestApi;
beforeAll(async () => {
  t = await createAccountsTestApi();
});
afterAll(async () => {
  await t?.close();
});

describe("builtin human check", () => {
  const verify = (token: string | undefined, now: Date) =>
    verifyHumanCheck({ db: t.db, config: t.config }, token, { now });

  it("issues a signed challenge from GET /v1/human-check/challenge", async () => {
    const answer = await t.get("/v1/human-check/challenge");
    expect(answer.status).toBe(200);
    expect(answer.body.payload).toEqual({
      provider: "builtin",
      token: expect.stringMatching(/^[\w-]{22}\.\d+\.[\w-]{43}$/),
      honeypotField: HONEYPOT_FIELD,
    });
  });

  it("accepts a challenge answered after 2 seconds, once", async () => {
    const issued = new Date();
    const { token } = issueChallenge(t.config, issued);
    expect(await verify(token!, new Date(issued.getTime() + 2_500))).toEqual({ ok: true });
    expect(await verify(token!, new Date(issued.getTime() + 3_000))).toEqual({ ok: false, reason: "reused" });
  });

  it("refuses an answer faster than 2 seconds, and lets that challenge work later", async () => {
    const issued = new Date();
    const { token } = issueChallenge(t.config, issued);
    expect(await verify(token!, new Date(issued.getTime() + 1_000))).toEqual({ ok: false, reason: "too-fast" });
    expect(await verify(token!, new Date(issued.getTime() + 4_000))).toEqual({ ok: true });
  });

  it("refuses a challenge older than 2 hours", async () => {
    const issued = new Date();
    const { token } = issueChallenge(t.config, issued);
    expect(await verify(token!, new Date(issued.getTime() + 2 * 60 * 60_000 + 1))).toEqual({
      ok: false,
      reason: "expired",
    });
  });

  it("refuses forged, altered and missing tokens", async () => {
    const issued = new Date(Date.now() - 10_000);
    const { token } = issueChallenge(t.config, issued);
    const [id, time, signature] = token!.split(".");
    const now = new Date();
    // Backdating the time to look older breaks the signature.
    expect(await verify(`${id}.${Number(time) - 60_000}.${signature}`, now)).toEqual({ ok: false, reason: "forged" });
    const flipped = signature.slice(0, -2) + (signature.at(-2) === "A" ? "B" : "A") + signature.at(-1);
    expect(await verify(`${id}.${time}.${flipped}`, now)).toEqual({ ok: false, reason: "forged" });
    const otherSecret = { ...t.config, sessionSecrets: ["another-secret-that-is-long-enough-0123456789"] };
    expect(await verify(issueChallenge(otherSecret, issued).token!, now)).toEqual({ ok: false, reason: "forged" });
    expect(await verify("not-a-token", now)).toEqual({ ok: false, reason: "malformed" });
    expect(await verify(undefined, now)).toEqual({ ok: false, reason: "missing" });
  });

  it("accepts a challenge signed with an older secret still listed (rotation)", async () => {
    const old = { ...t.config, sessionSecrets: ["the-previous-secret-that-is-long-enough-01234"] };
    const rotated = {
      ...t.config,
      sessionSecrets: ["the-current-secret-that-is-long-enough-012345", ...old.sessionSecrets],
    };
    const issued = new Date(Date.now() - 10_000);
    const { token } = issueChallenge(old, issued);
    expect(await verifyHumanCheck({ db: t.db, config: rotated }, token!)).toEqual({ ok: true });
  });

  it("lets only one of many simultaneous uses of one challenge pass", async () => {
    const { token } = issueChallenge(t.config, new Date(Date.now() - 10_000));
    const results = await Promise.all(Array.from({ length: 6 }, () => verify(token!, new Date())));
    expect(results.filter((result) => result.ok)).toHaveLength(1);
  });
});

describe("the visible question (a form shown again after a refusal, ADR 019)", () => {
  const verify = (answer: string, config = t.config) => verifyHumanCheck({ db: t.db, config }, answer);
  /** The choice a person picks: the sum the question asks for. */
  function rightChoice(challenge: ReturnType<typeof issueChallenge>) {
    if (challenge.provider !== "question") throw new Error("not a question");
    const [, a, b] = /^What is (\d) plus (\d)\?$/.exec(challenge.question.text)!;
    return challenge.question.choices.find((choice) => choice.label === String(Number(a) + Number(b)))!;
  }

  it("is served by GET /v1/human-check/challenge?visible=true: a sum with four choices", async () => {
    const answer = await t.get("/v1/human-check/challenge?visible=true");
    expect(answer.status).toBe(200);
    const { provider, token, question, honeypotField } = answer.body.payload;
    expect({ provider, token, honeypotField }).toEqual({
      provider: "question",
      token: null,
      honeypotField: HONEYPOT_FIELD,
    });
    expect(question.text).toMatch(/^What is \d plus \d\?$/);
    expect(question.choices).toHaveLength(4);
    expect(new Set(question.choices.map((choice: { label: string }) => choice.label)).size).toBe(4);
    expect((await t.get("/v1/human-check/challenge?visible=maybe")).status).toBe(400);
  });

  it("accepts the right choice at once (no minimum age), once", async () => {
    const challenge = issueChallenge(t.config, new Date(), { visible: true });
    const right = rightChoice(challenge);
    expect(await verify(right.answer)).toEqual({ ok: true });
    expect(await verify(right.answer)).toEqual({ ok: false, reason: "reused" });
  });

  it("refuses a wrong choice, and a question answered wrongly cannot be answered again", async () => {
    const challenge = issueChallenge(t.config, new Date(), { visible: true });
    if (challenge.provider !== "question") throw new Error("not a question");
    const right = rightChoice(challenge);
    const wrong = challenge.question.choices.find((choice) => choice !== right)!;
    expect(await verify(wrong.answer)).toEqual({ ok: false, reason: "wrong-answer" });
    expect(await verify(right.answer)).toEqual({ ok: false, reason: "reused" });
  });

  it("refuses a made-up choice, an expired question and one signed with another secret", async () => {
    const challenge = issueChallenge(t.config, new Date(), { visible: true });
    const right = rightChoice(challenge);
    const madeUp = right.answer.replace(
      /\.(\d+)\.([\w-]{43})$/,
      (_, sum: string, seal: string) => `.${Number(sum) + 1}.${seal}`,
    );
    expect(await verify(madeUp)).toEqual({ ok: false, reason: "wrong-answer" });
    const old = issueChallenge(t.config, new Date(Date.now() - 2 * 60 * 60_000 - 1), { visible: true });
    expect(await verify(rightChoice(old).answer)).toEqual({ ok: false, reason: "expired" });
    const otherSecret = { ...t.config, sessionSecrets: ["another-secret-that-is-long-enough-0123456789"] };
    expect(await verify(rightChoice(issueChallenge(otherSecret, new Date(), { visible: true })).answer)).toEqual({
      ok: false,
      reason: "wrong-answer",
    });
  });

  it("is accepted whatever the provider, so a refused person never needs a third party", async () => {
    const recaptcha = {
      ...t.config,
      humanCheck: { provider: "recaptcha" as const, secret: "s", siteKey: "k", verifyUrl: "http://127.0.0.1:9/none" },
    };
    const challenge = issueChallenge(recaptcha, new Date(), { visible: true });
    expect(await verify(rightChoice(challenge).answer, recaptcha)).toEqual({ ok: true });
  });

  it("tells the client to ask the question when a guarded post is too fast, and says when a choice was wrong", async () => {
    const body = (email: string, answer: string | undefined) => ({
      username: email,
      email,
      password: "Xk3mQ9pLw2",
      "g-recaptcha-response": answer,
    });
    // A password manager posting at once: refused, with the flag a page turns into its question (ADR 038).
    const tooFast = await t.post("/v1/user/register", body("quick@example.com", issueChallenge(t.config).token!));
    expect(tooFast.status).toBe(400);
    expect(tooFast.body).toMatchObject({
      message: HUMAN_CHECK_FAILED,
      errors: { "g-recaptcha-response": [HUMAN_CHECK_FAILED] },
      humanCheckRequired: true,
    });
    const redeemAtOnce = await t.post("/v1/order/redeemKey", {
      email: "quick@example.com",
      key: "DEMO1-VPN00-KEY00-00001",
      "g-recaptcha-response": issueChallenge(t.config).token!,
    });
    expect(redeemAtOnce.body).toMatchObject({ message: HUMAN_CHECK_FAILED, humanCheckRequired: true });

    const challenge = issueChallenge(t.config, new Date(), { visible: true });
    if (challenge.provider !== "question") throw new Error("not a question");
    const wrong = challenge.question.choices.find((choice) => choice !== rightChoice(challenge))!;
    const wrongAnswer = await t.post("/v1/user/register", body("wrong@example.com", wrong.answer));
    expect(wrongAnswer.status).toBe(400);
    expect(wrongAnswer.body).toMatchObject({
      message: HUMAN_CHECK_WRONG_ANSWER,
      errors: { "g-recaptcha-response": [HUMAN_CHECK_WRONG_ANSWER] },
      humanCheckRequired: true,
    });
  });

  it("lets a guest register with the right choice", async () => {
    const right = rightChoice(issueChallenge(t.config, new Date(), { visible: true }));
    const answer = await t.post("/v1/user/register", {
      username: "question@example.com",
      email: "question@example.com",
      password: "Xk3mQ9pLw2",
      "g-recaptcha-response": right.answer,
    });
    expect(answer.status).toBe(201);
  });
});

/** A stand-in for the provider's siteverify endpoint: it accepts the response "human-ok" only. */
function startFakeSiteverify(options: { score?: number } = {}) {
  const received: URLSearchParams[] = [];
  const server: Server = createServer(async (request: IncomingMessage, response) => {
    let body = "";
    for await (const chunk of request) body += chunk;
    const form = new URLSearchParams(body);
    received.push(form);
    const success =
      request.method === "POST" && form.get("secret") === "provider-secret" && form.get("response") === "human-ok";
    response.setHeader("content-type", "application/json");
    response.end(
      JSON.stringify(
        success
          ? { success: true, ...(options.score !== undefined && { score: options.score }), hostname: "localhost" }
          : { success: false, "error-codes": ["invalid-input-response"] },
      ),
    );
  });
  return new Promise<{ url: string; received: URLSearchParams[]; close: () => Promise<void> }>((resolve) => {
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as AddressInfo;
      resolve({
        url: `http://127.0.0.1:${port}/siteverify`,
        received,
        close: () => new Promise((done) => server.close(() => done())),
      });
    });
  });
}

describe.each(["turnstile", "recaptcha"] as const)("%s human check against a local siteverify", (provider) => {
  let withProvider: ReturnType<AccountsTestApi["withConfig"]>;
  let fake: Awaited<ReturnType<typeof startFakeSiteverify>>;
  beforeAll(async () => {
    fake = await startFakeSiteverify();
    withProvider = t.withConfig({
      HUMAN_CHECK: provider,
      HUMAN_CHECK_SECRET: "provider-secret",
      HUMAN_CHECK_SITE_KEY: "provider-site-key",
      HUMAN_CHECK_VERIFY_URL: fake.url,
    });
  });
  afterAll(async () => {
    await fake?.close();
  });

  it("tells the page which widget to render", async () => {
    const answer = await withProvider.get("/v1/human-check/challenge");
    expect(answer.body.payload).toEqual({
      provider,
      siteKey: "provider-site-key",
      token: null,
      honeypotField: HONEYPOT_FIELD,
    });
  });

  it("registers a guest when the provider says success, sending the secret and the client address", async () => {
    const answer = await withProvider.post(
      "/v1/user/register",
      {
        username: `${provider}@example.com`,
        email: `${provider}@example.com`,
        password: "Xk3mQ9pLw2",
        "g-recaptcha-response": "human-ok",
      },
      { ip: "192.0.2.44" },
    );
    expect(answer.status).toBe(201);
    const sent = fake.received.at(-1)!;
    expect(sent.get("secret")).toBe("provider-secret");
    expect(sent.get("response")).toBe("human-ok");
    expect(sent.get("remoteip")).toBe("192.0.2.44");
  });

  it("refuses the guest when the provider says no", async () => {
    const answer = await withProvider.post("/v1/user/register", {
      username: `bot-${provider}@example.com`,
      email: `bot-${provider}@example.com`,
      password: "Xk3mQ9pLw2",
      "g-recaptcha-response": "bot-answer",
    });
    expect(answer.status).toBe(400);
    expect(answer.body.message).toBe("Please complete the human check and try again.");
  });
});

describe("provider edge cases", () => {
  const providerConfig = (verifyUrl: string) => ({
    ...t.config,
    humanCheck: { provider: "recaptcha" as const, secret: "provider-secret", siteKey: "key", verifyUrl },
  });

  it("refuses a reCAPTCHA v3 answer with a low score", async () => {
    const fake = await startFakeSiteverify({ score: 0.2 });
    try {
      expect(await verifyHumanCheck({ db: t.db, config: providerConfig(fake.url) }, "human-ok")).toEqual({
        ok: false,
        reason: "low-score",
      });
    } finally {
      await fake.close();
    }
  });

  it("fails closed when the provider cannot be reached", async () => {
    const fake = await startFakeSiteverify();
    await fake.close();
    expect(await verifyHumanCheck({ db: t.db, config: providerConfig(fake.url) }, "human-ok")).toEqual({
      ok: false,
      reason: "unavailable",
    });
  });
});

describe("HUMAN_CHECK configuration", () => {
  const base = { NODE_ENV: "test", DATA_DIR: "/tmp/store-human-check-config", SESSION_SECRET: "x".repeat(40) } as const;

  it("defaults to builtin and names each provider's siteverify URL", () => {
    expect(loadConfig({ ...base }).humanCheck).toEqual({ provider: "builtin" });
    const keys = { HUMAN_CHECK_SECRET: "s", HUMAN_CHECK_SITE_KEY: "k" };
    expect(loadConfig({ ...base, ...keys, HUMAN_CHECK: "turnstile" }).humanCheck).toMatchObject({
      verifyUrl: "https://challenges.cloudflare.com/turnstile/v0/siteverify",
    });
    expect(loadConfig({ ...base, ...keys, HUMAN_CHECK: "recaptcha" }).humanCheck).toMatchObject({
      verifyUrl: "https://www.google.com/recaptcha/api/siteverify",
    });
  });

  it("stops at start when a provider lacks its keys", () => {
    expect(() => loadConfig({ ...base, HUMAN_CHECK: "recaptcha" })).toThrow(ConfigError);
    expect(() => loadConfig({ ...base, HUMAN_CHECK: "hcaptcha" })).toThrow(/HUMAN_CHECK/);
  });
});
