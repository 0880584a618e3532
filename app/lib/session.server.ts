import { type AppLoadContext, type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { type AccountAccess, type AccountProfile, mergeGuestCart, readAccess, readProfile } from "./accounts.server";
import { ApiUnavailableError, type ApiResult } from "./api.server";
import { cartFor } from "./cart.server";
import { cookiesOf } from "./cookies.server";
import { redirectWithSuccess, redirectWithWarning } from "./toast.server";

/*
 * The session is the API's bearer token in the HttpOnly cookie `token` (api.server.ts forwards it).
 * `footprint` is a script-readable marker beside it that says "signed in" without exposing the
 * token; both are set and cleared together (cookies.server.ts).
 */

/** The token cookie's value; undefined for a guest. */
export function sessionToken(request: Request, context: AppLoadContext): Promise<string | undefined> {
  return cookiesOf(context).token.read(request);
}

/** This browser's device token (ADR 015), when it kept one from an earlier sign-in and the signature holds. */
export function readDeviceToken(request: Request, context: AppLoadContext): Promise<string | undefined> {
  return cookiesOf(context).device.read(request);
}

/** Set-Cookie values that start a session with `token`. */
export async function sessionCookies(context: AppLoadContext, token: string): Promise<string[]> {
  const { token: tokenCookie, footprint } = cookiesOf(context);
  return [await tokenCookie.serialize(token), await footprint.serialize("1")];
}

/** Set-Cookie values that end the session in this browser. */
export async function clearedSessionCookies(context: AppLoadContext): Promise<string[]> {
  const { token, footprint } = cookiesOf(context);
  return [await token.clear(), await footprint.clear()];
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
  const token = await sessionToken(request, context);
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
  const token = await sessionToken(request, context);
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
async function signInFirst(request: Request, context: AppLoadContext): Promise<Response> {
  const login = `/login?${new URLSearchParams({ redirectTo: returnPath(request) })}`;
  if (!cookiesOf(context).token.sent(request)) return redirect(login);
  return redirect(login, { headers: headersWithCookies(await clearedSessionCookies(context)) });
}

/** For login-required pages: the user, or a redirect to /login. */
export async function requireUser(request: Request, context: AppLoadContext): Promise<AccountAccess> {
  const user = await getCurrentUser(request, context);
  if (!user) throw await signInFirst(request, context);
  return user;
}

/** requireUser for pages that show the profile's figures (balance, counts). */
export async function requireProfile(request: Request, context: AppLoadContext): Promise<AccountProfile> {
  const profile = await getCurrentProfile(request, context);
  if (!profile) throw await signInFirst(request, context);
  return profile;
}

/** For logged-out-only pages (/, /login, /signup, /forgot, /reset): a signed-in user goes to /dashboard. */
export async function requireAnonymous(request: Request, context: AppLoadContext): Promise<void> {
  if (await getCurrentUser(request, context)) throw redirect("/dashboard");
}

/** The whole loader of a logged-out-only page that loads nothing (/login, /signup, /forgot). */
export async function anonymousPageLoader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  return null;
}

/**
 * Ends a successful sign-in, sign-up, reset or two-factor step: stores the token and goes to `redirectTo`,
 * or to / (which sends a signed-in user on to /dashboard). This is where a guest's cart and a customer's
 * meet, once (ADR 052): the guest's lines (an unpaid guest order that was cancelled or expired gives its
 * lines back first) join the account's server cart, and every guest-cart cookie ends in the same answer,
 * the unpaid order's included, so nothing of the guest's cart can reach a later checkout.
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
  const headers = headersWithCookies(await sessionCookies(context, token));
  if (options.deviceToken) headers.append("Set-Cookie", await cookiesOf(context).device.serialize(options.deviceToken));
  const cart = cartFor(request, context);
  const { items } = await cart.cookieLines();
  headersWithCookies(await cart.endGuestCart(), headers);
  if (items.length === 0) return redirectWithSuccess(context, destination, options.message, { headers });

  const merged = await mergeGuestCart(context, token, items, cart.guestCartKey());
  if (!merged.ok) {
    context.logger.warn("cart merge at sign-in refused", { status: merged.status, message: merged.message });
    return redirectWithWarning(
      context,
      destination,
      `${options.message}. We could not move your cart into your account.`,
      {
        headers,
      },
    );
  }
  if (merged.payload.skipped.length > 0) {
    return redirectWithWarning(
      context,
      destination,
      `${options.message}. Some cart items are no longer available and were left out.`,
      { headers },
    );
  }
  return redirectWithSuccess(context, destination, options.message, { headers });
}
