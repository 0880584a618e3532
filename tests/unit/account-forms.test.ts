import { getZodConstraint } from "@conform-to/zod";
import { describe, expect, it } from "vitest";
import { HONEYPOT_FIELD, honeypotFilled } from "~/lib/honeypot";
import {
  changeEmailSchema,
  changePasswordSchema,
  loginSchema,
  resetSchema,
  signupSchema,
} from "~/components/account/schemas";
import { PASSWORDS_DO_NOT_MATCH } from "../../contract/account";
import { parseWithZod } from "@conform-to/zod";
import { formErrorsFromApi, replyFromApi } from "~/lib/api-reply.server";
import { HUMAN_CHECK_ASKED_FIELD, HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { redeemKeySchema } from "~/components/redeem-key-schema";

const account = {
  username: "reader_1",
  email: "reader@example.com",
  password: "a long passphrase",
  password2: "a long passphrase",
};

function issues(result: { success: boolean; error?: { issues: { path: (string | number)[]; message: string }[] } }) {
  return (result.error?.issues ?? []).map((issue) => `${issue.path.join(".")}: ${issue.message}`);
}

describe("account form schemas", () => {
  it("accepts a sign-up and refuses a confirmation that differs with the spec's message", () => {
    expect(signupSchema.safeParse(account).success).toBe(true);
    const mismatch = signupSchema.safeParse({ ...account, password2: "another passphrase" });
    expect(issues(mismatch)).toEqual([`password2: ${PASSWORDS_DO_NOT_MATCH}`]);
  });

  it("applies the same confirmation rule to the reset and settings password forms", () => {
    const reset = resetSchema.safeParse({
      email: account.email,
      otp: "012345",
      password: "first passphrase",
      password2: "second",
    });
    expect(issues(reset)).toContain(`password2: ${PASSWORDS_DO_NOT_MATCH}`);
    const change = changePasswordSchema.safeParse({
      intent: "password",
      password: "first passphrase",
      password2: "first passphrase",
    });
    expect(change.success).toBe(true);
  });

  it("needs the 6 digits of the reset code, leading zeros kept", () => {
    const base = { email: account.email, password: "a long passphrase", password2: "a long passphrase" };
    expect(resetSchema.safeParse({ ...base, otp: "001234" }).success).toBe(true);
    expect(issues(resetSchema.safeParse({ ...base, otp: "12345" }))).toEqual([
      "otp: The code is the 6 digits from the email",
    ]);
    expect(issues(resetSchema.safeParse({ ...base, otp: "12a456" }))).toEqual([
      "otp: The code is the 6 digits from the email",
    ]);
  });

  it("names the missing sign-in fields", () => {
    expect(issues(loginSchema.safeParse({}))).toEqual([
      "username: Please enter your username or email",
      "password: Please enter your password",
    ]);
  });

  it("refuses usernames with other characters and malformed emails", () => {
    expect(issues(signupSchema.safeParse({ ...account, username: "two words" }))).toEqual([
      "username: Username may use letters, digits and . _ @ + - only",
    ]);
    expect(issues(changeEmailSchema.safeParse({ intent: "email", email: "not-an-email" }))).toEqual([
      "email: Invalid email",
    ]);
  });

  it("gives JS-off browsers the constraints, with patterns valid under the v flag browsers use", () => {
    const signup = getZodConstraint(signupSchema);
    expect(signup.username).toMatchObject({ required: true, minLength: 3, maxLength: 64 });
    expect(signup.password).toMatchObject({ required: true, minLength: 8, maxLength: 128 });
    expect(signup.password2).toMatchObject({ required: true });
    const usernamePattern = new RegExp(`^(?:${signup.username.pattern})$`, "v");
    expect(usernamePattern.test("reader.one+shop@x-y_z")).toBe(true);
    expect(usernamePattern.test("two words")).toBe(false);

    const reset = getZodConstraint(resetSchema);
    const otpPattern = new RegExp(`^(?:${reset.otp.pattern})$`, "v");
    expect(otpPattern.test("012345")).toBe(true);
    expect(otpPattern.test("12345")).toBe(false);
    // Only checkout-made accounts may leave it empty, so the browser must not demand it.
    expect(getZodConstraint(changeEmailSchema).currentPassword?.required).toBeFalsy();
  });
});

describe("formErrorsFromApi", () => {
  const failure = (message: string, errors?: Record<string, string[]>) => ({
    ok: false as const,
    status: 400,
    message,
    errors,
  });

  it("puts messages next to the visible fields the API names", () => {
    const result = formErrorsFromApi(
      failure("Password must be at least 8 characters", { password: ["Password must be at least 8 characters"] }),
      ["password", "password2"],
    );
    expect(result).toEqual({ formErrors: [], fieldErrors: { password: ["Password must be at least 8 characters"] } });
  });

  it("makes everything else an error of the whole form", () => {
    expect(
      formErrorsFromApi(
        { ok: false, status: 429, message: "Too many attempts. Please wait 15 minutes and try again." },
        ["username"],
      ),
    ).toEqual({
      formErrors: ["Too many attempts. Please wait 15 minutes and try again."],
      fieldErrors: {},
    });
    expect(formErrorsFromApi(failure("Invalid email", { email: ["Invalid email"] }), ["otp"])).toEqual({
      formErrors: ["Invalid email"],
      fieldErrors: {},
    });
  });
});

function submission() {
  const formData = new FormData();
  formData.set("username", "reader_1");
  formData.set("password", "a wrong passphrase");
  return parseWithZod(formData, { schema: loginSchema });
}

describe("replyFromApi", () => {
  it("keeps a 429 a 429 and makes any other refusal a 400", () => {
    const limited = {
      ok: false as const,
      status: 429,
      message: "Too many attempts. Please wait 15 minutes and try again.",
    };
    expect(replyFromApi(submission(), limited, { fields: ["username"] }).status).toBe(429);
    expect(replyFromApi(submission(), { ...limited, status: 401 }, { fields: ["username"] }).status).toBe(400);
    expect(replyFromApi(submission(), { ...limited, status: 409 }, { fields: ["username"] }).status).toBe(400);
  });

  it("files the errors as formErrorsFromApi does and hides secret fields", () => {
    const failure = { ok: false as const, status: 401, message: "Invalid username or password" };
    const { result } = replyFromApi(submission(), failure, {
      fields: ["username", "password"],
      hideFields: ["password"],
    });
    expect(result.error).toEqual({ "": ["Invalid username or password"] });
    expect(result.initialValue).toEqual({ username: "reader_1" });
  });
});

describe("replyFromApi after a refusal by the human check (ADR 038)", () => {
  const refused = (message: string) => ({
    ok: false as const,
    status: 400,
    message,
    errors: { [HUMAN_CHECK_FIELD]: [message] },
    humanCheckRequired: true,
  });
  const redeemPost = (fields: Record<string, string>) => {
    const formData = new FormData();
    formData.set("email", "quick@example.com");
    formData.set("key", "DEMO1-VPN00-KEY00-00001");
    for (const [name, value] of Object.entries(fields)) formData.set(name, value);
    return parseWithZod(formData, { schema: redeemKeySchema });
  };

  it("answers a post the invisible check found too fast with no error and the entered values", () => {
    const { result, status } = replyFromApi(
      redeemPost({ [HUMAN_CHECK_FIELD]: "a-builtin-token" }),
      refused("Please complete the human check and try again."),
      { fields: ["email", "key"] },
    );
    expect(status).toBe(400);
    expect(result.error).toBeUndefined();
    expect(result.initialValue).toMatchObject({ email: "quick@example.com", key: "DEMO1-VPN00-KEY00-00001" });
  });

  it("says so when the person answered the question they were shown wrongly", () => {
    const wrong = "That is not the right answer. Please answer the new question and send again.";
    const { result } = replyFromApi(
      redeemPost({ [HUMAN_CHECK_FIELD]: "q.a-wrong-choice", [HUMAN_CHECK_ASKED_FIELD]: "question" }),
      refused(wrong),
      { fields: ["email", "key"] },
    );
    expect(result.error).toEqual({ "": [wrong] });
    expect(result.initialValue).toMatchObject({ email: "quick@example.com" });
  });

  it("keeps other refusals that ask for the check next time (a wrong password) as errors", () => {
    const failure = {
      ok: false as const,
      status: 401,
      message: "Invalid username or password",
      humanCheckRequired: true,
    };
    const { result } = replyFromApi(submission(), failure, { fields: ["username", "password"] });
    expect(result.error).toEqual({ "": ["Invalid username or password"] });
  });
});

describe("honeypot", () => {
  it("refuses a post that fills the hidden field", () => {
    const filled = new FormData();
    filled.set(HONEYPOT_FIELD, "bot");
    const empty = new FormData();
    empty.set(HONEYPOT_FIELD, "");
    expect(honeypotFilled(filled)).toBe(true);
    expect(honeypotFilled(empty)).toBe(false);
    expect(honeypotFilled(new FormData())).toBe(false);
  });
});
