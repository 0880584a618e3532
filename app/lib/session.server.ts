import { type AppLoadContext, createCookie, redirect } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { processConfiguration } from "../../api/config";
import { type AccountAccess, type AccountProfile, mergeGuestCart, readAccess, readProfile } from "./accounts.server";
import { ApiUnavailableError, type ApiResult } from "./api.server";
import { readCartItems, serializeCart } from "./cart.server";
import { redirectWithSuccess, redirectWithWarning } from "./toast.server";

/*
 * The session is the API's bearer token in the HttpOnly cookie `token` (api.server.ts forwards it).
 * `footprint` is a script-readable marker beside it that says "signed in" without exposing the
 * token; both are set and cleared together.
 */

export const TOKEN_COOKIE = "token";
export const FOOTPRINT_COOKIE = "footprint";
const SESSION_MAX_AGE_SECONDS = 60 * 60 * 24 * 30;

function cookieValue(request: Request, name: string): string | undefined {
  const header = request.headers.get("cookie");
  const match = header?.match(new RegExp(`(?:^|;\\s*)${name}=([^;]*)`));
  return match?.[1] ? decodeURIComponent(match[1]) : undefined;
}

/** The token cookie's value; undefined for a guest. */
export function sessionToken(request: Request): string | undefined {
  return cookieValue(request, TOKEN_COOKIE);
}

/** Secure whenever the store is served over https (every production deployment); plain-http local runs would lose it. */
function servedOverHttps(): boolean {
  return processConfiguration().publicUrl.startsWith("https://");
}

function sessionCookie(
  name: string,
  value: string,
  maxAge: number,
  options: { httpOnly: boolean; secure: boolean },
): string {
  const attributes = [`${name}=${encodeURIComponent(value)}`, "Path=/", `Max-Age=${maxAge}`, "SameSite=Lax"];
  if (options.httpOnly) attributes.push("HttpOnly");
  if (options.secure) attributes.push("Secure");
  return attributes.join("; ");
}

/*
 * `device` holds the API's device token for this browser (ADR 015): a browser that has signed in to
 * an account before is not held back by failed sign-ins from elsewhere. Signed, HttpOnly, kept for a
 * year and through sign-out, since it says "this browser", not "signed in".
 */
const DEVICE_MAX_AGE_SECONDS = 60 * 60 * 24 * 365;
let processDeviceCookie: ReturnType<typeof createCookie> | undefined;
function deviceCookie() {
  if (!processDeviceCookie) {
    const config = processConfiguration();
    processDeviceCookie = createCookie("device", {
      secrets: config.sessionSecrets,
      httpOnly: true,
      sameSite: "lax",
      secure: servedOverHttps(),
      path: "/",
      maxAge: DEVICE_MAX_AGE_SECONDS,
    });
  }
  return processDeviceCookie;
}

/** This browser's device token, when it kept one from an earlier sign-in and the signature holds. */
export async function readDeviceToken(request: Request): Promise<string | undefined> {
  const value: unknown = await deviceCookie().parse(request.headers.get("cookie"));
  return typeof value === "string" ? value : undefined;
}

/** Set-Cookie values that start a session with `token`. */
export function sessionCookies(token: string, secure = servedOverHttps()): string[] {
  return [
    sessionCookie(TOKEN_COOKIE, token, SESSION_MAX_AGE_SECONDS, { httpOnly: true, secure }),
    sessionCookie(FOOTPRINT_COOKIE, "1", SESSION_MAX_AGE_SECONDS, { httpOnly: false, secure }),
  ];
}

/** Set-Cookie values that end the session in this browser. */
export function clearedSessionCookies(secure = servedOverHttps()): string[] {
  return [
    sessionCookie(TOKEN_COOKIE, "", 0, { httpOnly: true, secure }),
    sessionCookie(FOOTPRINT_COOKIE, "", 0, { httpOnly: false, secure }),
  ];
}

export function headersWithCookies(cookies: string[], headers = new Headers()): Headers {
  for (const cookie of cookies) headers.append("Set-Cookie", cookie);
  return headers;
}

/*
 * One lookup per page request: the root loader and the route loaders of one request share the
 * load context (each gets its own copy of the Request), so the cache hangs on the context.
 */
type SessionLookups = { access?: Promise<AccountAccess | null>; profile?: Promise<AccountProfile | null> };
const lookupsByRequest = new WeakMap<AppLoadContext, Map<string, SessionLookups>>();

function lookupsFor(context: AppLoadContext, token: string): SessionLookups {
  let byToken = lookupsByRequest.get(context);
  if (!byToken) lookupsByRequest.set(context, (byToken = new Map()));
  let lookups = byToken.get(token);
  if (!lookups) byToken.set(token, (lookups = {}));
  return lookups;
}

/** The payload, null for a 401 (no live session), and any other failure to the error boundary. */
function signedInOrNull<T>(path: string) {
  return (result: ApiResult<T>): T | null => {
    if (result.ok) return result.payload;
    if (result.status === 401) return null;
    throw new ApiUnavailableError(`${path} answered ${result.status}: ${result.message}`, result.status);
  };
}

/** The signed-in user of this request, or null; looked up once per page request. */
export async function getCurrentUser(request: Request, context: AppLoadContext): Promise<AccountAccess | null> {
  const token = sessionToken(request);
  if (!token) return null;
  const lookups = lookupsFor(context, token);
  // The root loader's profile lookup answers the same question; reuse it when it has started.
  if (lookups.profile) {
    const profile = await lookups.profile;
    return profile && { email: profile.email, username: profile.username };
  }
  lookups.access ??= readAccess(context, request).then(signedInOrNull("/v1/user/access"));
  return lookups.access;
}

/** The signed-in user's profile (balance, counts), or null; cached per request like getCurrentUser. */
export async function getCurrentProfile(request: Request, context: AppLoadContext): Promise<AccountProfile | null> {
  const token = sessionToken(request);
  if (!token) return null;
  const lookups = lookupsFor(context, token);
  lookups.profile ??= readProfile(context, request).then(signedInOrNull("/v1/user/profile"));
  return lookups.profile;
}

/** The path and query of this page, for coming back after sign-in. */
export function returnPath(request: Request): string {
  const url = new URL(request.url);
  return url.pathname + url.search;
}

/** The way to /login that comes back here afterwards; a token the API no longer accepts is dropped on the way. */
function signInFirst(request: Request): Response {
  const login = `/login?${new URLSearchParams({ redirectTo: returnPath(request) })}`;
  return redirect(login, sessionToken(request) ? { headers: headersWithCookies(clearedSessionCookies()) } : undefined);
}

/** For login-required pages: the user, or a redirect to /login. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<AccountAccess> {
  const user = await getCurrentUser(request, context);
  if (!user) throw signInFirst(request);
  return user;
}

/** requireUser for pages that show the profile's figures (balance, counts). */
export async function requireProfile(request: Request, context: AppLoadContext): Promise<AccountProfile> {
  const profile = await getCurrentProfile(request, context);
  if (!profile) throw signInFirst(request);
  return profile;
}

/** For logged-out-only pages (/, /login, /signup, /forgot, /reset): a signed-in user goes to /dashboard. */
export async function requireAnonymous(request: Request, context: AppLoadContext): Promise<void> {
  if (await getCurrentUser(request, context)) throw redirect("/dashboard");
}

/**
 * Ends a successful sign-in, sign-up or reset: stores the token, moves the guest cookie cart into
 * the account's server cart (then clears the cookie) and goes to `redirectTo`, or to / (which
 * sends a signed-in user on to /dashboard).
 */
export async function completeSignIn(options: {
  request: Request;
  context: AppLoadContext;
  token: string;
  /** The API's device token for this browser, from a password sign-in. */
  deviceToken?: string;
  redirectTo: string | null | undefined;
  message: string;
}): Promise<Response> {
  const { request, context, token } = options;
  const destination = safeRedirect(options.redirectTo, "/");
  const headers = headersWithCookies(sessionCookies(token));
  if (options.deviceToken) headers.append("Set-Cookie", await deviceCookie().serialize(options.deviceToken));
  const { items } = await readCartItems(request);
  if (items.length === 0) return redirectWithSuccess(destination, options.message, { headers });

  const merged = await mergeGuestCart(context, token, items);
  headers.append("Set-Cookie", await serializeCart([]));
  if (!merged.ok) {
    console.error(`cart merge at sign-in answered ${merged.status}: ${merged.message}`);
    return redirectWithWarning(destination, `${options.message}. We could not move your cart into your account.`, {
      headers,
    });
  }
  if (merged.payload.skipped.length > 0) {
    return redirectWithWarning(
      destination,
      `${options.message}. Some cart items are no longer available and were left out.`,
      {
        headers,
      },
    );
  }
  return redirectWithSuccess(destination, options.message, { headers });
}
