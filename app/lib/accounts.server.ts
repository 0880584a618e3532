import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import { mergedCartSchema } from "../../contract/answers/cart";
import { apiCall, type ApiResult } from "./api.server";
import type { CartItem } from "./cart.server";

/*
 * The /v1 client of accounts: sign-up, sign-in, reset, profile, settings and the human-check
 * challenge. Every function answers an ApiResult, so a page can show a 4xx (wrong password,
 * taken email, 429) as a form error; 5xx and broken answers are thrown by apiCall.
 */

const tokenPayload = z.object({ token: z.string().min(1) });
const nothing = z.unknown();

const accessPayload = z.object({ email: z.string(), username: z.string() });
export type AccountAccess = z.infer<typeof accessPayload>;

const profilePayload = z.object({
  username: z.string(),
  email: z.string(),
  /** USD: 12.5 is $12.50. */
  balance: z.number(),
  orders: z.number().int(),
  completedOrders: z.number().int(),
  /** USD paid for completed and partly completed orders. */
  spent: z.number(),
  tickets: z.number().int(),
  openTickets: z.number().int(),
  created: z.string(),
});
export type AccountProfile = z.infer<typeof profilePayload>;

const challengePayload = z.discriminatedUnion("provider", [
  z.object({ provider: z.literal("builtin"), token: z.string(), honeypotField: z.string() }),
  z.object({
    provider: z.literal("question"),
    token: z.null(),
    question: z.object({
      text: z.string(),
      choices: z.array(z.object({ label: z.string(), answer: z.string() })),
    }),
    honeypotField: z.string(),
  }),
  z.object({
    provider: z.enum(["recaptcha", "turnstile"]),
    siteKey: z.string(),
    token: z.null(),
    honeypotField: z.string(),
  }),
]);
export type HumanCheckChallenge = z.infer<typeof challengePayload>;

const signInPayload = tokenPayload.extend({ deviceToken: z.string().min(1) });
/** A staff account with two-factor sign-in on answers this instead of a token (ADR 027). */
const codeStepPayload = z.object({ twoFactorRequired: z.literal(true), challenge: z.string().min(1) });

/** `deviceToken` is the browser's from an earlier sign-in; the answer holds the one to keep (ADR 015). */
export function signInWithPassword(
  context: AppLoadContext,
  input: { username: string; password: string; deviceToken?: string; "g-recaptcha-response"?: string },
) {
  return apiCall(context, {
    path: "/v1/user/login",
    body: input,
    payload: z.union([signInPayload, codeStepPayload]),
  });
}

export function signInWithSecondFactor(
  context: AppLoadContext,
  input: { challenge: string; code: string; deviceToken?: string },
) {
  return apiCall(context, { path: "/v1/user/login/two-factor", body: input, payload: signInPayload });
}

export function registerAccount(
  context: AppLoadContext,
  input: { username: string; email: string; password: string; password2: string },
) {
  return apiCall(context, { path: "/v1/user/register", body: input, payload: tokenPayload });
}

export function requestResetCode(context: AppLoadContext, email: string) {
  return apiCall(context, { path: "/v1/user/forget-password", body: { email }, payload: nothing });
}

export function resetPasswordWithCode(
  context: AppLoadContext,
  input: { email: string; otp: string; password: string; password2: string },
) {
  return apiCall(context, { path: "/v1/user/reset-password", body: input, payload: tokenPayload });
}

/** Whether the request's token cookie is a live session; 401 when it is not. */
export function readAccess(context: AppLoadContext, request: Request): Promise<ApiResult<AccountAccess>> {
  return apiCall(context, { path: "/v1/user/access", request, payload: accessPayload });
}

export function readProfile(context: AppLoadContext, request: Request): Promise<ApiResult<AccountProfile>> {
  return apiCall(context, { path: "/v1/user/profile", request, payload: profilePayload });
}

/** Revokes the request's token on the server. */
export function revokeSignIn(context: AppLoadContext, request: Request) {
  return apiCall(context, { path: "/v1/user/logout", method: "POST", request, payload: nothing });
}

export function changeUsername(context: AppLoadContext, request: Request, input: { username: string }) {
  return apiCall(context, { path: "/v1/user/update/username", request, body: input, payload: nothing });
}

export function changeEmail(
  context: AppLoadContext,
  request: Request,
  input: { email: string; currentPassword?: string },
) {
  return apiCall(context, { path: "/v1/user/update/email", request, body: input, payload: nothing });
}

/** Every other session of the account ends; the answer holds this browser's new token. */
export function changePassword(
  context: AppLoadContext,
  request: Request,
  input: { password: string; password2: string; currentPassword?: string },
) {
  return apiCall(context, { path: "/v1/user/update/password", request, body: input, payload: tokenPayload });
}

/** Adds the guest cookie cart's lines to the account's server cart; `skipped` lists options it could not take. */
export function mergeGuestCart(context: AppLoadContext, token: string, cartItems: CartItem[]) {
  return apiCall(context, {
    path: "/v1/cart/merge",
    token,
    body: { cartItems },
    answer: mergedCartSchema,
  });
}

/**
 * What a page needs to render the human check of a guarded form (guest checkout, redeem, replacement).
 * Read while answering a form post, the form is being shown again after a refusal: then the check is
 * a visible question, so a person is never refused by a rule they cannot see (ADR 019).
 */
export function readHumanCheckChallenge(context: AppLoadContext): Promise<ApiResult<HumanCheckChallenge>> {
  const visible = context.requestMethod === "POST";
  return apiCall(context, {
    path: `/v1/human-check/challenge${visible ? "?visible=true" : ""}`,
    payload: challengePayload,
  });
}
