import type { Context, MiddlewareHandler } from "hono";
import type { ApiEnv } from "../context";
import { unauthorized } from "../errors";
import { type SessionUser, userForToken } from "../services/accounts/sessions";

export type AuthUser = SessionUser;

/** 256-bit tokens are 43 base64url characters; anything else is not worth a query. */
const BEARER = /^Bearer ([A-Za-z0-9_-]{43})$/i;

/**
 * Sets c.var.user when the request carries a valid bearer token; never refuses a request itself. A page's
 * in-process calls share one lookup through the page request's memo (c.env.sessions, api/in-process.ts),
 * which is emptied after any call that may change a session, so a sign-out is seen at once.
 */
export const authenticate: MiddlewareHandler<ApiEnv> = async (c, next) => {
  const match = BEARER.exec(c.req.header("authorization")?.trim() ?? "");
  if (match) {
    const token = match[1];
    const memo = c.env?.sessions;
    let lookup = memo?.get(token);
    if (!lookup) {
      lookup = userForToken(c.get("db"), token).then((user) => user ?? null);
      memo?.set(token, lookup);
      // A failed lookup is not kept: the next call tries again, and this one answers its own error.
      lookup.catch(() => memo?.delete(token));
    }
    const user = await lookup;
    if (user) c.set("user", user);
  }
  await next();
};

/** The signed-in user, or a 401 that the web layer turns into "sign in again". */
export function requireUser(c: Context<ApiEnv>): AuthUser {
  const user = c.get("user");
  if (!user) throw unauthorized("Please sign in to continue");
  return user;
}
