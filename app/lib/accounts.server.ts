import type { AppLoadContext } from "@remix-run/node";
import { noPayloadSchema } from "../../contract/answers/common";
import { type HumanCheckChallenge, humanCheckChallengeSchema } from "../../contract/answers/human-check";
import type { AccountAccess, AccountProfile } from "../../contract/answers/user";
import * as answerOf from "../../contract/answers/user";
import { mergedCartSchema } from "../../contract/answers/cart";
import { apiCall, type ApiResult } from "./api.server";
import type { CartItem } from "./cart.server";

/*
 * The /v1 client of accounts: sign-up, sign-in, reset, profile, settings and the human-check
 * challenge. Every function answers an ApiResult, so a page can show a 4xx (wrong password,
 * taken email, 429) as a form error; 5xx and broken answers are thrown by apiCall.
 */

export type { AccountAccess, AccountProfile, HumanCheckChallenge };

/** `deviceToken` is the browser's from an earlier sign-in; the answer holds the one to keep (ADR 015). */
export function signInWithPassword(
  context: AppLoadContext,
  input: { username: string; password: string; deviceToken?: string; "g-recaptcha-response"?: string },
) {
  return apiCall(context, {
    path: "/v1/user/login",
    body: input,
    answer: answerOf.loginAnswerSchema,
  });
}

export function signInWithSecondFactor(
  context: AppLoadContext,
  input: { challenge: string; code: string; deviceToken?: string },
) {
  return apiCall(context, { path: "/v1/user/login/two-factor", body: input, answer: answerOf.signedInSchema });
}

export function registerAccount(
  context: AppLoadContext,
  input: { username: string; email: string; password: string; password2: string },
) {
  return apiCall(context, { path: "/v1/user/register", body: input, answer: answerOf.sessionSchema });
}

export function requestResetCode(context: AppLoadContext, email: string) {
  return apiCall(context, { path: "/v1/user/forget-password", body: { email }, answer: noPayloadSchema });
}

export function resetPasswordWithCode(
  context: AppLoadContext,
  input: { email: string; otp: string; password: string; password2: string },
) {
  return apiCall(context, { path: "/v1/user/reset-password", body: input, answer: answerOf.sessionSchema });
}

/** Whether the request's token cookie is a live session; 401 when it is not. */
export function readAccess(context: AppLoadContext, request: Request): Promise<ApiResult<AccountAccess>> {
  return apiCall(context, { path: "/v1/user/access", request, answer: answerOf.accessSchema });
}

export function readProfile(context: AppLoadContext, request: Request): Promise<ApiResult<AccountProfile>> {
  return apiCall(context, { path: "/v1/user/profile", request, answer: answerOf.profileSchema });
}

/** Revokes the request's token on the server. */
export function revokeSignIn(context: AppLoadContext, request: Request) {
  return apiCall(context, { path: "/v1/user/logout", method: "POST", request, answer: noPayloadSchema });
}

export function changeUsername(context: AppLoadContext, request: Request, input: { username: string }) {
  return apiCall(context, { path: "/v1/user/update/username", request, body: input, answer: noPayloadSchema });
}

export function changeEmail(
  context: AppLoadContext,
  request: Request,
  input: { email: string; currentPassword?: string },
) {
  return apiCall(context, { path: "/v1/user/update/email", request, body: input, answer: noPayloadSchema });
}

/** Every other session of the account ends; the answer holds this browser's new token. */
export function changePassword(
  context: AppLoadContext,
  request: Request,
  input: { password: string; password2: string; currentPassword?: string },
) {
  return apiCall(context, { path: "/v1/user/update/password", request, body: input, answer: answerOf.sessionSchema });
}

/**
 * Adds the guest cookie cart's lines to the account's server cart; `skipped` lists options it could not take.
 * `guestCartKey` names the guest cart (cart.server.ts): the API merges it once, so a sign-in posted twice at once
 * with the same cookies adds the guest's quantities once.
 */
export function mergeGuestCart(context: AppLoadContext, token: string, cartItems: CartItem[], guestCartKey: string) {
  return apiCall(context, {
    path: "/v1/cart/merge",
    token,
    body: { cartItems },
    answer: mergedCartSchema,
    idempotencyKey: guestCartKey,
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
    answer: humanCheckChallengeSchema,
  });
}

/** The challenge itself, or null when the API could not give one (the form then shows no check). */
export async function freshHumanCheck(context: AppLoadContext): Promise<HumanCheckChallenge | null> {
  const challenge = await readHumanCheckChallenge(context);
  return challenge.ok ? challenge.payload : null;
}
