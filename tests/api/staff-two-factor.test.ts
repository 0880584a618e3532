import { and, eq } from "drizzle-orm";
import { generateSync } from "otplib";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { auditLog, mailOutbox, signInChallenges, users } from "../../api/db/schema";
import { TWO_FACTOR_ACCOUNT_RULE, TWO_FACTOR_MESSAGES } from "../../api/services/accounts/two-factor";
import { type ShopTestApi, createShopTestApi } from "../support/shop";

/*
 * Staff two-factor sign-in (issue 16, ADR 027): enrolment, the code step of sign-in, replayed and recovery
 * codes, challenges used once, expiring and running out of attempts, wrong codes limited per account (the
 * race on PostgreSQL), owners requiring it of all staff, and the sessions these changes end. PGlite and
 * PostgreSQL.
 */

let client: ShopTestApi;
beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

const PASSWORD = "correct horse battery staple";
let counter = 0;

/** An account with a real password, given `role`, and a bearer token. */
async function account(role: "customer" | "owner" | "manager" | "support") {
  counter++;
  const username = `tf${role}${counter}${Date.now().toString(36)}`;
  const registered = await client.post("/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password: PASSWORD,
    password2: PASSWORD,
  });
  expect(registered.status).toBe(201);
  await client.db.update(users).set({ role }).where(eq(users.username, username));
  return { username, token: registered.body.payload.token as string };
}

const step = () => Math.floor(Date.now() / 1000 / 30);
const codeAt = (secret: string, at: number) => generateSync({ secret, epoch: at * 30 });

/** Sets two-factor sign-in up for `who` and answers the secret and the recovery codes. */
async function enrol(who: { token: string }) {
  const setup = await client.post("/v1/admin/two-factor/setup", {}, { token: who.token });
  expect(setup.status).toBe(200);
  expect(setup.body.payload.uri).toMatch(/^otpauth:\/\/totp\//);
  expect(setup.body.payload.qrSvg).toContain("<svg");
  const secret = setup.body.payload.secret as string;
  const enabled = await client.post(
    "/v1/admin/two-factor/enable",
    { code: codeAt(secret, step()) },
    { token: who.token },
  );
  expect(enabled.status).toBe(200);
  return { secret, recoveryCodes: enabled.body.payload.recoveryCodes as string[] };
}

const passwordStep = (username: string) => client.post("/v1/user/login", { username, password: PASSWORD });
const codeStep = (challenge: string, code: string) => client.post("/v1/user/login/two-factor", { challenge, code });

/** Six digits that no code of the app's matches now (one step of drift either way). */
function wrongCode(secret: string): string {
  const valid = new Set([-1, 0, 1, 2].map((drift) => codeAt(secret, step() + drift)));
  for (let guess = 123456; ; guess++) if (!valid.has(String(guess))) return String(guess);
}

const LIMIT_MAIL_SUBJECT = "Many wrong sign-in codes for your account";
const limitMailsTo = (username: string) =>
  client.db
    .select()
    .from(mailOutbox)
    .where(and(eq(mailOutbox.to, `${username}@example.com`), eq(mailOutbox.subject, LIMIT_MAIL_SUBJECT)));
const ADDRESSES = ["203.0.113.11", "198.51.100.12", "192.0.2.13"];

/** A new session through both steps, with the app's next code (enrolment spent this step's). */
async function signInWithCode(username: string, secret: string): Promise<string> {
  const challenge = (await passwordStep(username)).body.payload.challenge as string;
  const signedIn = await codeStep(challenge, codeAt(secret, step() + 1));
  expect(signedIn.status).toBe(200);
  return signedIn.body.payload.token;
}

describe("enrolment", () => {
  it("turns on only with a right code, stores the secret encrypted, and audits it", async () => {
    const staff = await account("support");
    const setup = await client.post("/v1/admin/two-factor/setup", {}, { token: staff.token });
    const secret = setup.body.payload.secret as string;
    const [row] = await client.db.select().from(users).where(eq(users.username, staff.username));
    expect(row.totpSecret).not.toContain(secret);
    const wrong = await client.post("/v1/admin/two-factor/enable", { code: "000000" }, { token: staff.token });
    expect(wrong).toMatchObject({ status: 400, body: { errors: { code: [TWO_FACTOR_MESSAGES.wrongCode] } } });
    expect((await client.get("/v1/admin/two-factor", { token: staff.token })).body.payload).toMatchObject({
      enabled: false,
      pending: true,
    });
    const enabled = await client.post(
      "/v1/admin/two-factor/enable",
      { code: codeAt(secret, step()) },
      { token: staff.token },
    );
    expect(enabled.body.payload.recoveryCodes).toHaveLength(10);
    expect(new Set(enabled.body.payload.recoveryCodes).size).toBe(10);
    expect((await client.get("/v1/admin/two-factor", { token: staff.token })).body.payload).toMatchObject({
      enabled: true,
      recoveryCodesLeft: 10,
    });
    const [entry] = await client.db.select().from(auditLog).where(eq(auditLog.action, "two-factor.enable"));
    expect(entry).toBeDefined();
    expect(JSON.stringify(entry.changes)).not.toContain(secret);
  });

  it("signs out the member's other sessions, password-only ones from before, and keeps the one that turned it on", async () => {
    const staff = await account("manager");
    const earlier = (await passwordStep(staff.username)).body.payload.token as string;
    const bystander = await account("manager");
    expect((await client.get("/v1/admin/customers", { token: earlier })).status).toBe(200);
    await enrol(staff);
    expect((await client.get("/v1/admin/customers", { token: earlier })).status).toBe(401);
    expect((await client.get("/v1/user/access", { token: earlier })).status).toBe(401);
    expect((await client.get("/v1/admin/customers", { token: staff.token })).status).toBe(200);
    expect((await client.get("/v1/admin/customers", { token: bystander.token })).status).toBe(200);
  });

  it("is for staff: a customer gets 403", async () => {
    const customer = await account("customer");
    expect((await client.post("/v1/admin/two-factor/setup", {}, { token: customer.token })).status).toBe(403);
  });
});

describe("signing in with a second factor", () => {
  it("answers a challenge instead of a token, then a session for a fresh code; a code is never taken twice", async () => {
    const staff = await account("manager");
    const { secret } = await enrol(staff);
    const first = await passwordStep(staff.username);
    expect(first.status).toBe(200);
    expect(first.body.payload).toEqual({ twoFactorRequired: true, challenge: expect.any(String) });
    expect(first.body.payload.token).toBeUndefined();

    // The enrolment spent this step's code: the next one is accepted once.
    const replayed = await codeStep(first.body.payload.challenge, codeAt(secret, step()));
    expect(replayed.status).toBe(400);
    const next = codeAt(secret, step() + 1);
    const signedIn = await codeStep(first.body.payload.challenge, next);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.payload.token).toEqual(expect.any(String));
    const me = await client.get("/v1/admin/me", { token: signedIn.body.payload.token });
    expect(me.body.payload.role).toBe("manager");

    expect((await codeStep(first.body.payload.challenge, next)).status).toBe(401);
    const second = await passwordStep(staff.username);
    expect((await codeStep(second.body.payload.challenge, next)).status).toBe(400);
  });

  it("takes each recovery code once, with spaces or capitals", async () => {
    const staff = await account("support");
    const { recoveryCodes } = await enrol(staff);
    const code = recoveryCodes[3];
    const first = await passwordStep(staff.username);
    const signedIn = await codeStep(first.body.payload.challenge, ` ${code.toUpperCase()} `);
    expect(signedIn.status).toBe(200);
    const again = await passwordStep(staff.username);
    expect((await codeStep(again.body.payload.challenge, code)).status).toBe(400);
    expect(
      (await client.get("/v1/admin/two-factor", { token: signedIn.body.payload.token })).body.payload,
    ).toMatchObject({ recoveryCodesLeft: 9 });
  });

  it("ends a challenge after five wrong codes, and after five minutes", async () => {
    const staff = await account("support");
    const { secret } = await enrol(staff);
    const tried = await passwordStep(staff.username);
    for (let attempt = 0; attempt < 5; attempt++) {
      expect((await codeStep(tried.body.payload.challenge, "123456")).status).toBe(400);
    }
    const fresh = codeAt(secret, step() + 1);
    expect(await codeStep(tried.body.payload.challenge, fresh)).toMatchObject({
      status: 401,
      body: { message: TWO_FACTOR_MESSAGES.challengeGone },
    });

    const late = await passwordStep(staff.username);
    await client.db.update(signInChallenges).set({ expiresAt: new Date(Date.now() - 1_000) });
    expect((await codeStep(late.body.payload.challenge, fresh)).status).toBe(401);
    expect((await codeStep("made-up-challenge", fresh)).status).toBe(401);
  });

  it("leaves customers' sign-in as it was", async () => {
    const customer = await account("customer");
    const answer = await passwordStep(customer.username);
    expect(answer.body.payload).toEqual({ token: expect.any(String), deviceToken: expect.any(String) });
  });
});

describe("wrong codes for one account", () => {
  it("past 10 wrong codes, from any challenge and address, every code is 429 (the right one too) and the owner is mailed once", async () => {
    const staff = await account("manager");
    const { secret } = await enrol(staff);
    const bystander = await account("support");
    const bystanderSecret = (await enrol(bystander)).secret;

    // The attack run: 30 wrong codes over 6 challenges from 3 addresses.
    const statuses: number[] = [];
    for (let round = 0; round < 6; round++) {
      const ip = ADDRESSES[round % 3];
      const signIn = await client.post("/v1/user/login", { username: staff.username, password: PASSWORD }, { ip });
      for (let guess = 0; guess < 5; guess++) {
        const answer = await client.post(
          "/v1/user/login/two-factor",
          { challenge: signIn.body.payload.challenge, code: wrongCode(secret) },
          { ip },
        );
        statuses.push(answer.status);
      }
    }
    expect(statuses).toEqual([...Array(10).fill(400), ...Array(20).fill(429)]);

    const late = await passwordStep(staff.username);
    const refused = await codeStep(late.body.payload.challenge, codeAt(secret, step() + 1));
    expect(refused.status).toBe(429);
    expect(refused.body.message).toMatch(/^Too many attempts\. Please wait \d+ minutes? and try again\.$/);
    expect(Number(refused.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(refused.body.payload).toBeUndefined();

    const mails = await limitMailsTo(staff.username);
    expect(mails).toHaveLength(1);
    expect(mails[0].text).toContain("Someone entered your password correctly, then many wrong codes");
    for (const ip of ADDRESSES) expect(mails[0].text).not.toContain(ip);
    // Another account's sign-in goes on.
    expect(await signInWithCode(bystander.username, bystanderSecret)).toEqual(expect.any(String));
    expect(await limitMailsTo(bystander.username)).toEqual([]);
  });

  it("counts only wrong codes: a right code between them does not bring the limit nearer", async () => {
    const staff = await account("support");
    const { secret } = await enrol(staff);
    const guess = async (count: number) => {
      const challenge = (await passwordStep(staff.username)).body.payload.challenge;
      const answers = [];
      for (let index = 0; index < count; index++) answers.push((await codeStep(challenge, wrongCode(secret))).status);
      return answers;
    };
    expect([...(await guess(5)), ...(await guess(4))]).toEqual(Array(9).fill(400));
    expect(await signInWithCode(staff.username, secret)).toEqual(expect.any(String));
    expect(await guess(2)).toEqual([400, 429]);
    expect(TWO_FACTOR_ACCOUNT_RULE.limit).toBe(10);
  });
});

describe.skipIf(!process.env.TEST_DATABASE_URL)("wrong codes sent at once (PostgreSQL)", () => {
  it("30 wrong codes at once over 6 challenges from 3 addresses: 10 are judged, 20 refused, one mail", async () => {
    const staff = await account("manager");
    const { secret } = await enrol(staff);
    const challenges: { challenge: string; ip: string }[] = [];
    for (let round = 0; round < 6; round++) {
      const ip = ADDRESSES[round % 3];
      const signIn = await client.post("/v1/user/login", { username: staff.username, password: PASSWORD }, { ip });
      challenges.push({ challenge: signIn.body.payload.challenge, ip });
    }
    const code = wrongCode(secret);
    const answers = await Promise.all(
      challenges.flatMap(({ challenge, ip }) =>
        Array.from({ length: 5 }, () => client.post("/v1/user/login/two-factor", { challenge, code }, { ip })),
      ),
    );
    const statuses = answers.map((answer) => answer.status);
    expect(statuses.filter((status) => status === 400)).toHaveLength(10);
    expect(statuses.filter((status) => status === 429)).toHaveLength(20);
    expect(await limitMailsTo(staff.username)).toHaveLength(1);
  });
});

describe("required for all staff", () => {
  it("signs out every staff session but the owner's current one; customers stay signed in", async () => {
    const owner = await account("owner");
    const ownerElsewhere = await signInWithCode(owner.username, (await enrol(owner)).secret);
    const manager = await account("manager");
    const enrolled = await account("support");
    const enrolledSession = await signInWithCode(enrolled.username, (await enrol(enrolled)).secret);
    const customer = await account("customer");
    expect((await client.put("/v1/admin/two-factor/policy", { required: true }, { token: owner.token })).status).toBe(
      200,
    );
    try {
      for (const token of [ownerElsewhere, manager.token, enrolled.token, enrolledSession]) {
        expect((await client.get("/v1/user/access", { token })).status).toBe(401);
      }
      expect((await client.get("/v1/admin/staff", { token: owner.token })).status).toBe(200);
      expect((await client.get("/v1/user/access", { token: customer.token })).status).toBe(200);
    } finally {
      await client.put("/v1/admin/two-factor/policy", { required: false }, { token: owner.token });
    }
  });

  it("sends staff without it to enrol first, and keeps it on for those who have it", async () => {
    const owner = await account("owner");
    const manager = await account("manager");
    expect((await client.put("/v1/admin/two-factor/policy", { required: true }, { token: manager.token })).status).toBe(
      403,
    );
    const early = await client.put("/v1/admin/two-factor/policy", { required: true }, { token: owner.token });
    expect(early).toMatchObject({ status: 409, body: { message: TWO_FACTOR_MESSAGES.ownerFirst } });
    await enrol(owner);
    const set = await client.put("/v1/admin/two-factor/policy", { required: true }, { token: owner.token });
    expect(set.status).toBe(200);
    try {
      // The manager's session ended with the change: a new sign-in reaches only the enrolment.
      expect((await client.get("/v1/admin/me", { token: manager.token })).status).toBe(401);
      manager.token = (await passwordStep(manager.username)).body.payload.token;
      const refused = await client.get("/v1/admin/customers", { token: manager.token });
      expect(refused).toMatchObject({ status: 403, body: { message: TWO_FACTOR_MESSAGES.enrolFirst } });
      const me = await client.get("/v1/admin/me", { token: manager.token });
      expect(me.body.payload.twoFactorEnrolmentRequired).toBe(true);
      const { secret } = await enrol(manager);
      expect((await client.get("/v1/admin/customers", { token: manager.token })).status).toBe(200);
      const off = await client.post(
        "/v1/admin/two-factor/disable",
        { code: codeAt(secret, step() + 1) },
        { token: manager.token },
      );
      expect(off).toMatchObject({ status: 409, body: { message: TWO_FACTOR_MESSAGES.required } });
    } finally {
      await client.put("/v1/admin/two-factor/policy", { required: false }, { token: owner.token });
    }
  });

  it("lets a member turn it off with a code when it is not required", async () => {
    const staff = await account("support");
    const { secret } = await enrol(staff);
    const off = await client.post(
      "/v1/admin/two-factor/disable",
      { code: codeAt(secret, step() + 1) },
      { token: staff.token },
    );
    expect(off.status).toBe(200);
    const signIn = await passwordStep(staff.username);
    expect(signIn.body.payload.token).toEqual(expect.any(String));
  });
});

/*
 * Issue 37 item 8: a staff member who lost both the phone and the recovery codes is helped by an owner from the
 * back office, not in the database: POST /v1/admin/staff/{id}/two-factor/reset.
 */
describe("an owner resetting another staff member's two-factor sign-in", () => {
  const reset = (memberId: string, token: string) =>
    client.post(`/v1/admin/staff/${memberId}/two-factor/reset`, {}, { token });
  const idOf = async (username: string) =>
    (await client.db.select({ id: users.id }).from(users).where(eq(users.username, username)))[0].id;

  it("is refused to managers and support; the owner's reset ends the member's sessions, is audited, and the member enrols again", async () => {
    const owner = await account("owner");
    const member = await account("manager");
    const { secret } = await enrol(member);
    const memberId = await idOf(member.username);
    const memberToken = await signInWithCode(member.username, secret);
    const listed = await client.get("/v1/admin/staff", { token: owner.token });
    expect(listed.body.payload.records.find((record: { _id: string }) => record._id === memberId).twoFactor).toBe(true);

    for (const role of ["manager", "support"] as const) {
      const other = await account(role);
      const refused = await reset(memberId, other.token);
      expect(refused.status, role).toBe(403);
    }
    expect((await client.get("/v1/admin/me", { token: memberToken })).status).toBe(200);

    const done = await reset(memberId, owner.token);
    expect(done.status, done.body.message).toBe(200);
    expect(done.body.payload).toMatchObject({ _id: memberId, twoFactor: false });
    // Every session of the member ended; the owner's did not.
    expect((await client.get("/v1/admin/me", { token: memberToken })).status).toBe(401);
    expect((await client.get("/v1/admin/me", { token: owner.token })).status).toBe(200);
    const [entry] = await client.db
      .select()
      .from(auditLog)
      .where(and(eq(auditLog.action, "two-factor.reset"), eq(auditLog.objectId, memberId)));
    expect(entry).toMatchObject({
      actorEmail: `${owner.username}@example.com`,
      objectType: "user",
      objectLabel: `${member.username}@example.com`,
      changes: { before: { twoFactor: true }, after: { twoFactor: false } },
    });
    // The member signs in with the password alone now, and sets it up again.
    const signIn = await passwordStep(member.username);
    expect(signIn.body.payload.token).toEqual(expect.any(String));
    expect(signIn.body.payload.challenge).toBeUndefined();
    await enrol({ token: signIn.body.payload.token });

    const again = await reset(memberId, owner.token);
    expect(again.status).toBe(200);
    const nothing = await reset(memberId, owner.token);
    expect(nothing).toMatchObject({ status: 409, body: { message: TWO_FACTOR_MESSAGES.nothingToReset } });
  });

  it("is not for oneself, nor for a customer or an unknown id", async () => {
    const owner = await account("owner");
    await enrol(owner);
    const ownerId = await idOf(owner.username);
    const self = await reset(ownerId, owner.token);
    expect(self).toMatchObject({ status: 409, body: { message: TWO_FACTOR_MESSAGES.notOnYourself } });
    const customer = await account("customer");
    expect((await reset(await idOf(customer.username), owner.token)).status).toBe(404);
    expect((await reset("unknown-id", owner.token)).status).toBe(404);
    expect((await reset("A".repeat(22), owner.token)).status).toBe(404);
  });
});
