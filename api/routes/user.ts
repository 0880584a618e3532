import { noPayloadSchema } from "../../contract/answers/common";
import {
  accessSchema,
  loginAnswerSchema,
  profileSchema,
  sessionSchema,
  signedInSchema,
} from "../../contract/answers/user";
import type { Context } from "hono";
import type { ApiEnv } from "../context";
import { ok } from "../http";
import { requireUser } from "../middleware/auth";
import {
  NO_BODY,
  UNAUTHORIZED,
  answers,
  apiRouter,
  declareRoute,
  jsonBody,
  sentenceFailure,
  signedInRoute,
} from "../openapi";
import { requestIp } from "../request-ip";
import { login, loginWithSecondFactor } from "../services/accounts/login";
import { readProfile, updateEmail, updatePassword, updateUsername } from "../services/accounts/profile";
import { registerAccount } from "../services/accounts/accounts";
import { assertHuman } from "../services/guards/human-check";
import { RESET_REQUESTED, requestPasswordReset, resetPassword } from "../services/accounts/password-reset";
import { revokeSession } from "../services/accounts/sessions";
import {
  emailInput,
  forgetInput,
  loginInput,
  passwordInput,
  registerInput,
  resetInput,
  twoFactorInput,
  usernameInput,
} from "./user-inputs";

function serviceContext(c: Context<ApiEnv>) {
  return { db: c.get("db"), config: c.get("config"), ip: requestIp(c), userAgent: c.req.header("user-agent") };
}

const ACCOUNTS = ["Accounts"];
const FIELD_ERRORS = { 400: "bad input: `message` is the first field's sentence, `errors` has every field's" };
const RATE_LIMITED = { 429: "too many attempts (with `Retry-After`)" };

/** Field failures answer the first field's sentence alone: the account pages show it as it is. */
export const userRoutes = apiRouter(sentenceFailure)
  .openapi(
    declareRoute(ACCOUNTS, {
      method: "post",
      path: "/register",
      summary: "Create an account (guest checkout: a human-check answer instead of `password2`)",
      request: { body: jsonBody(registerInput) },
      responses: answers(201, sessionSchema, "signed in as the new account", {
        ...FIELD_ERRORS,
        409: "email or username taken",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => {
      const input = c.req.valid("json");
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
    },
  )
  .openapi(
    declareRoute(ACCOUNTS, {
      method: "post",
      path: "/login",
      summary: "Sign in with a username or email",
      request: { body: jsonBody(loginInput) },
      responses: answers(200, loginAnswerSchema, "signed in, or the code step", {
        400: "bad input; or the human check is needed (`humanCheckRequired: true`) and missing or failed",
        401: "`Invalid username or password` (with `humanCheckRequired: true` when the next try needs the check)",
        403: "the password is right but staff blocked the account: `This account is blocked. Contact support.`",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => {
      const { "g-recaptcha-response": humanCheckAnswer, ...input } = c.req.valid("json");
      return ok(
        c,
        await login({ ...serviceContext(c), logger: c.get("logger") }, { ...input, humanCheckAnswer }),
        "Signed in",
      );
    },
  )
  .openapi(
    declareRoute(ACCOUNTS, {
      method: "post",
      path: "/login/two-factor",
      summary: "The second step of a staff sign-in: the challenge and a code from the app, or a recovery code",
      request: { body: jsonBody(twoFactorInput) },
      responses: answers(200, signedInSchema, "signed in", {
        400: "bad input, or a wrong code (`errors.code`; it uses up one of the challenge's five attempts)",
        401: "the challenge is unknown, used, expired (5 minutes) or out of attempts: sign in again",
        403: "the account is blocked",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => ok(c, await loginWithSecondFactor(serviceContext(c), c.req.valid("json")), "Signed in"),
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "get",
      path: "/access",
      summary: "Whether the token is signed in, and as whom",
      responses: answers(200, accessSchema, "signed in", UNAUTHORIZED),
    }),
    (c) => {
      const user = requireUser(c);
      return ok(c, { email: user.email, username: user.username });
    },
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "post",
      path: "/logout",
      summary: "Revoke this token",
      request: { body: NO_BODY },
      responses: answers(200, noPayloadSchema, "`Signed out`", UNAUTHORIZED),
    }),
    async (c) => {
      const user = requireUser(c);
      await revokeSession(c.get("db"), user.sessionId);
      return ok(c, null, "Signed out");
    },
  )
  .openapi(
    declareRoute(ACCOUNTS, {
      method: "post",
      path: "/forget-password",
      summary: "Mail a reset code (the answer is the same whether the email has an account)",
      request: { body: jsonBody(forgetInput) },
      responses: answers(200, noPayloadSchema, "the code was sent if the account exists", {
        ...FIELD_ERRORS,
        ...RATE_LIMITED,
      }),
    }),
    async (c) => {
      await requestPasswordReset(serviceContext(c), c.req.valid("json").email);
      return ok(c, null, RESET_REQUESTED);
    },
  )
  .openapi(
    declareRoute(ACCOUNTS, {
      method: "post",
      path: "/reset-password",
      summary: "Set a new password with the mailed code; every other session ends",
      request: { body: jsonBody(resetInput) },
      responses: answers(200, sessionSchema, "signed in with the new password", {
        400: "bad input, password rules, or the code is invalid or has expired",
        403: "the code is right but staff blocked the account: the password is not changed",
        ...RATE_LIMITED,
      }),
    }),
    async (c) => ok(c, await resetPassword(serviceContext(c), c.req.valid("json")), "Your password has been reset"),
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "get",
      path: "/profile",
      summary: "The customer's profile",
      responses: answers(200, profileSchema, "the profile", UNAUTHORIZED),
    }),
    async (c) => {
      return ok(c, await readProfile(c.get("db"), requireUser(c).id));
    },
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "post",
      path: "/update/username",
      summary: "Change the username",
      request: { body: jsonBody(usernameInput) },
      responses: answers(200, noPayloadSchema, "changed", { ...FIELD_ERRORS, ...UNAUTHORIZED, 409: "username taken" }),
    }),
    async (c) => {
      await updateUsername(serviceContext(c), requireUser(c).id, c.req.valid("json").username);
      return ok(c, null, "Your username has been updated");
    },
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "post",
      path: "/update/email",
      summary: "Change the email; `currentPassword` is needed unless this session signed in within the last 10 minutes",
      request: { body: jsonBody(emailInput) },
      responses: answers(200, noPayloadSchema, "changed; the old address is told", {
        ...FIELD_ERRORS,
        ...UNAUTHORIZED,
        409: "email taken",
      }),
    }),
    async (c) => {
      const user = requireUser(c);
      await updateEmail(serviceContext(c), user, c.req.valid("json"));
      return ok(c, null, "Your email has been updated");
    },
  )
  .openapi(
    signedInRoute(ACCOUNTS, {
      method: "post",
      path: "/update/password",
      summary:
        "Change the password (`currentPassword` as for the email); every session ends and this browser gets a new token",
      request: { body: jsonBody(passwordInput) },
      responses: answers(200, sessionSchema, "changed", { ...FIELD_ERRORS, ...UNAUTHORIZED }),
    }),
    async (c) => {
      const user = requireUser(c);
      return ok(
        c,
        await updatePassword(serviceContext(c), user, c.req.valid("json")),
        "Your password has been updated",
      );
    },
  );
