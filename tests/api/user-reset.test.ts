import { desc, eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { mailOutbox, passwordResets, users } from "../../api/db/schema";
import { requestPasswordReset } from "../../api/services/accounts/password-reset";
import { type AccountsTestApi, createAccountsTestApi, freshIp } from "../support/accounts";

const PASSWORD = "correct horse battery staple";
const NEW_PASSWORD = "a completely new passphrase";
const SAME_ANSWER = "If an account exists for that email, we have sent a reset code.";
const INVALID_CODE = "The code is invalid or has expired. Please check it or request a new one.";
let t: AccountsTestApi;
let counter = 0;

function person() {
  counter++;
  return { username: `resetter${counter}`, email: `resetter${counter}@example.com` };
}

/** The code in the newest reset mail to this address, read the way a person would: from the text. */
async function mailedCode(email: string): Promise<string> {
  const [mail] = await t.db
    .select()
    .from(mailOutbox)
    .where(eq(mailOutbox.to, email))
    .orderBy(desc(mailOutbox.createdAt))
    .limit(1);
  const code = /Your code: (\d{6})/.exec(mail?.text ?? "")?.[1];
  if (!code) throw new Error(`no reset code mailed to ${email}`);
  return code;
}

function anotherCode(code: string): string {
  return String((Number(code) + 1) % 1_000_000).padStart(6, "0");
}

beforeAll(async () => {
  t = await createAccountsTestApi();
});
afterAll(async () => {
  await t?.close();
});

describe("POST /v1/user/forget-password", () => {
  it("answers the same for a known and an unknown email, and mails a 6-digit code only to the known one", async () => {
    const who = person();
    await t.register(who);
    const known = await t.post("/v1/user/forget-password", { email: who.email.toUpperCase() });
    const unknown = await t.post("/v1/user/forget-password", { email: "nobody-has-this@example.com" });
    expect(known.status).toBe(200);
    expect(unknown.status).toBe(200);
    expect(known.body).toEqual({ success: true, message: SAME_ANSWER, payload: null });
    expect(unknown.body).toEqual(known.body);

    const mails = await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, who.email));
    expect(mails).toHaveLength(1);
    expect(mails[0].subject).toBe("Your password reset code");
    expect(mails[0].text).toMatch(/Your code: \d{6}\n/);
    expect(mails[0].html).toContain(await mailedCode(who.email));
    expect(mails[0].text).toContain(`/reset?email=${encodeURIComponent(who.email)}`);
    expect(await t.db.select().from(mailOutbox).where(eq(mailOutbox.to, "nobody-has-this@example.com"))).toHaveLength(
      0,
    );

    // Only a keyed hash of the code is stored.
    const [user] = await t.db.select().from(users).where(eq(users.email, who.email));
    const [reset] = await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(reset.codeHash).not.toContain(await mailedCode(who.email));
    expect(reset.expiresAt.getTime() - reset.createdAt.getTime()).toBe(10 * 60_000);
  });

  it("takes the same minimum time for a known and an unknown email", async () => {
    const who = person();
    await t.register(who);
    for (const email of [who.email, "nobody-at-all@example.com"]) {
      const started = performance.now();
      await t.post("/v1/user/forget-password", { email });
      expect(performance.now() - started).toBeGreaterThanOrEqual(240);
    }
  });

  it("refuses a missing or malformed email with 400", async () => {
    expect((await t.post("/v1/user/forget-password", {})).body.message).toBe("Please enter your email address");
    const bad = await t.post("/v1/user/forget-password", { email: "nope" });
    expect(bad.status).toBe(400);
    expect(bad.body.message).toBe("Invalid email");
  });
});

describe("POST /v1/user/reset-password", () => {
  it("sets the new password with the mailed code, revokes every session and signs this browser in", async () => {
    const who = person();
    const oldToken = await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);

    const answer = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(answer.status).toBe(200);
    expect(answer.body.message).toBe("Your password has been reset");
    const token = answer.body.payload.token;
    expect((await t.get("/v1/user/access", { token })).body.payload.email).toBe(who.email);
    expect((await t.get("/v1/user/access", { token: oldToken })).status).toBe(401);
    expect((await t.post("/v1/user/login", { username: who.username, password: PASSWORD })).status).toBe(401);
    expect((await t.post("/v1/user/login", { username: who.username, password: NEW_PASSWORD })).status).toBe(200);

    // Single use.
    const again = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: "yet another passphrase",
      password2: "yet another passphrase",
    });
    expect(again.status).toBe(400);
    expect(again.body.message).toBe(INVALID_CODE);
  });

  it("accepts the code sent as a number, keeping leading zeros", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);
    const answer = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp: Number(otp),
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(answer.status).toBe(200);
  });

  it("refuses mismatched or weak new passwords without spending a try", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);
    const mismatch = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: NEW_PASSWORD,
      password2: "other",
    });
    expect(mismatch.status).toBe(400);
    expect(mismatch.body.message).toBe("Passwords do not match");
    for (let i = 0; i < 6; i++) {
      const weak = await t.post("/v1/user/reset-password", {
        email: who.email,
        otp,
        password: "12345678",
        password2: "12345678",
      });
      expect(weak.body.message).toBe("This password is too common. Please choose a less predictable one");
    }
    const missingCode = await t.post("/v1/user/reset-password", {
      email: who.email,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(missingCode.body.message).toBe("Please enter the code from the email");
    const shortCode = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp: "12a",
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(shortCode.body.message).toBe("The code is the 6 digits from the email");
    const ok = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(ok.status).toBe(200);
  });

  it("kills a code after 5 wrong tries, even for the right code afterwards", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);
    for (let i = 0; i < 5; i++) {
      const wrong = await t.post("/v1/user/reset-password", {
        email: who.email,
        otp: anotherCode(otp),
        password: NEW_PASSWORD,
        password2: NEW_PASSWORD,
      });
      expect(wrong.status).toBe(400);
      expect(wrong.body.message).toBe(INVALID_CODE);
    }
    const right = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(right.status).toBe(400);
    expect(right.body.message).toBe(INVALID_CODE);
  });

  it("counts parallel wrong guesses exactly (never more than 5 checked)", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);
    await Promise.all(
      Array.from({ length: 8 }, (_, i) =>
        t.post(
          "/v1/user/reset-password",
          {
            email: who.email,
            otp: anotherCode(String(Number(otp) + i)),
            password: NEW_PASSWORD,
            password2: NEW_PASSWORD,
          },
          { ip: freshIp() },
        ),
      ),
    );
    const [user] = await t.db.select().from(users).where(eq(users.email, who.email));
    const [reset] = await t.db.select().from(passwordResets).where(eq(passwordResets.userId, user.id));
    expect(reset.attempts).toBe(5);
  });

  it("refuses a code older than 10 minutes and accepts one just younger", async () => {
    const who = person();
    await t.register(who);
    const ctx = { db: t.db, config: t.config, ip: freshIp() };
    const now = Date.now();

    await requestPasswordReset({ ...ctx, now: new Date(now - 10 * 60_000 - 1_000) }, who.email);
    const expired = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp: await mailedCode(who.email),
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(expired.status).toBe(400);
    expect(expired.body.message).toBe(INVALID_CODE);

    await requestPasswordReset({ ...ctx, now: new Date(now - 9 * 60_000) }, who.email);
    const fresh = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp: await mailedCode(who.email),
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(fresh.status).toBe(200);
  });

  it("lets a new request supersede the older code", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const first = await mailedCode(who.email);
    await new Promise((resolve) => setTimeout(resolve, 5));
    await t.post("/v1/user/forget-password", { email: who.email });
    const second = await mailedCode(who.email);
    if (first !== second) {
      const old = await t.post("/v1/user/reset-password", {
        email: who.email,
        otp: first,
        password: NEW_PASSWORD,
        password2: NEW_PASSWORD,
      });
      expect(old.status).toBe(400);
      expect(old.body.message).toBe(INVALID_CODE);
    }
    const current = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp: second,
      password: NEW_PASSWORD,
      password2: NEW_PASSWORD,
    });
    expect(current.status).toBe(200);
  });

  it("gives the same answer for an unknown email and for an email without a pending code", async () => {
    const who = person();
    await t.register(who);
    const body = { otp: "123456", password: NEW_PASSWORD, password2: NEW_PASSWORD };
    const unknown = await t.post("/v1/user/reset-password", { ...body, email: "nobody-has-this@example.com" });
    const noCode = await t.post("/v1/user/reset-password", { ...body, email: who.email });
    expect(unknown.status).toBe(400);
    expect(unknown.body).toEqual(noCode.body);
    expect(unknown.body.message).toBe(INVALID_CODE);
  });

  it("refuses a new password equal to the username once the code is right, keeping the code usable", async () => {
    const who = person();
    await t.register(who);
    await t.post("/v1/user/forget-password", { email: who.email });
    const otp = await mailedCode(who.email);
    const same = await t.post("/v1/user/reset-password", {
      email: who.email,
      otp,
      password: who.email,
      password2: who.email,
    });
    expect(same.status).toBe(400);
    expect(same.body.message).toBe("Password must not be your username or email");
    expect(
      (
        await t.post("/v1/user/reset-password", {
          email: who.email,
          otp,
          password: NEW_PASSWORD,
          password2: NEW_PASSWORD,
        })
      ).status,
    ).toBe(200);
  });
});
