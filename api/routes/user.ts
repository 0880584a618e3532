import { type Context, Hono } from "hono";
import { z } from "zod";
import type { ApiEnv } from "../context";
import { badRequest } from "../errors";
import { jsonBody, ok } from "../http";
import { requireUser } from "../middleware/auth";
import { requestIp } from "../request-ip";
import {
  INVALID_LOGIN,
  USERNAME_CHARACTERS,
  login,
  readProfile,
  registerAccount,
  updateEmail,
  updatePassword,
  updateUsername,
} from "../services/accounts";
import { assertHuman } from "../services/human-check";
import { RESET_REQUESTED, requestPasswordReset, resetPassword } from "../services/password-reset";
import { revokeSession } from "../services/sessions";

/*
 * Field messages are whole sentences: the pages show them as they are, next to the field
 * that `errors` names. Password rules (length, common passwords) live in the services.
 */

const required = (message: string) => ({ required_error: message, invalid_type_error: message });

const username = z
  .string(required("Please enter a username"))
  .trim()
  .min(3, "Username must be 3 to 64 characters")
  .max(64, "Username must be 3 to 64 characters")
  .regex(USERNAME_CHARACTERS, "Username may use letters, digits and . _ @ + - only");
const email = z
  .string(required("Please enter your email address"))
  .trim()
  .min(1, "Please enter your email address")
  .max(254, "Invalid email")
  .email("Invalid email");
/** The policy's 128-character limit answers with its own message; this bound only keeps huge bodies from argon2. */
const newPassword = z
  .string(required("Please enter a password"))
  .min(1, "Please enter a password")
  .max(4096, "Password must be at most 128 characters");
const confirmation = z.string(required("Please confirm your password"));
const currentPassword = z.string().max(4096).optional();
const humanCheckAnswer = z.string().max(8192).optional();

function passwordsMatch(value: { password: string; password2?: string }, ctx: z.RefinementCtx) {
  if (value.password2 !== undefined && value.password2 !== value.password) {
    ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: "Passwords do not match" });
  }
}

const registerInput = z
  .object({
    username,
    email,
    password: newPassword,
    password2: confirmation.optional(),
    "g-recaptcha-response": humanCheckAnswer,
  })
  .superRefine((value, ctx) => {
    // The guest variant (checkout) sends a human-check answer and no confirmation.
    if (value["g-recaptcha-response"] === undefined && value.password2 === undefined) {
      ctx.addIssue({ code: z.ZodIssueCode.custom, path: ["password2"], message: "Please confirm your password" });
    }
    passwordsMatch(value, ctx);
  });
const loginInput = z.object({
  username: z
    .string(required("Please enter your username or email"))
    .trim()
    .min(1, "Please enter your username or email")
    .max(254, INVALID_LOGIN),
  password: z
    .string(required("Please enter your password"))
    .min(1, "Please enter your password")
    .max(4096, INVALID_LOGIN),
  deviceToken: z.string().max(128).optional(),
  "g-recaptcha-response": humanCheckAnswer,
});
const forgetInput = z.object({ email });
const resetInput = z
  .object({
    email,
    otp: z
      .union([z.string(), z.number()], required("Please enter the code from the email"))
      // A client that sends the code as a number loses its leading zeros.
      .transform((value) => (typeof value === "number" ? String(value).padStart(6, "0") : value.trim()))
      .pipe(
        z
          .string()
          .min(1, "Please enter the code from the email")
          .regex(/^\d{6}$/, "The code is the 6 digits from the email"),
      ),
    password: newPassword,
    password2: confirmation,
  })
  .superRefine(passwordsMatch);
const usernameInput = z.object({ username });
const emailInput = z.object({ email, currentPassword });
const passwordInput = z
  .object({ password: newPassword, password2: confirmation.optional(), currentPassword })
  .superRefine(passwordsMatch);

/** Reads the JSON body; a failure answers 400 with the first field's sentence and every field's messages. */
async function formInput<S extends z.ZodTypeAny>(c: Context<ApiEnv>, schema: S): Promise<z.output<S>> {
  const result = schema.safeParse(await jsonBody(c, z.unknown()));
  if (result.success) return result.data;
  const errors: Record<string, string[]> = {};
  for (const issue of result.error.issues) (errors[issue.path.join(".") || "_"] ??= []).push(issue.message);
  throw badRequest(result.error.issues[0].message, errors);
}

function serviceContext(c: Context<ApiEnv>) {
  return { db: c.get("db"), config: c.get("config"), ip: requestIp(c), userAgent: c.req.header("user-agent") };
}

export const userRoutes = new Hono<ApiEnv>()
  .post("/register", async (c) => {
    const input = await formInput(c, registerInput);
    const ctx = serviceContext(c);
    const answer = input["g-recaptcha-response"];
    if (answer !== undefined) await assertHuman({ ...ctx, logger: c.get("logger") }, answer, { ip: ctx.ip });
    const { token } = await registerAccount(ctx, {
      username: input.username,
      email: input.email,
      password: input.password,
      autoCreated: input.password2 === undefined,
    });
    return ok(c, { token }, "Your account has been created", 201);
  })
  .post("/login", async (c) => {
    const { "g-recaptcha-response": humanCheckAnswer, ...input } = await formInput(c, loginInput);
    return ok(
      c,
      await login({ ...serviceContext(c), logger: c.get("logger") }, { ...input, humanCheckAnswer }),
      "Signed in",
    );
  })
  .get("/access", (c) => {
    const user = requireUser(c);
    return ok(c, { email: user.email, username: user.username });
  })
  .post("/logout", async (c) => {
    const user = requireUser(c);
    await revokeSession(c.get("db"), user.sessionId);
    return ok(c, null, "Signed out");
  })
  .post("/forget-password", async (c) => {
    const input = await formInput(c, forgetInput);
    await requestPasswordReset(serviceContext(c), input.email);
    return ok(c, null, RESET_REQUESTED);
  })
  .post("/reset-password", async (c) => {
    const input = await formInput(c, resetInput);
    return ok(c, await resetPassword(serviceContext(c), input), "Your password has been reset");
  })
  .get("/profile", async (c) => {
    const user = requireUser(c);
    return ok(c, await readProfile(c.get("db"), user.id));
  })
  .post("/update/username", async (c) => {
    const user = requireUser(c);
    const input = await formInput(c, usernameInput);
    await updateUsername(serviceContext(c), user.id, input.username);
    return ok(c, null, "Your username has been updated");
  })
  .post("/update/email", async (c) => {
    const user = requireUser(c);
    const input = await formInput(c, emailInput);
    await updateEmail(serviceContext(c), user.id, input);
    return ok(c, null, "Your email has been updated");
  })
  .post("/update/password", async (c) => {
    const user = requireUser(c);
    const input = await formInput(c, passwordInput);
    return ok(c, await updatePassword(serviceContext(c), user.id, input), "Your password has been updated");
  });
