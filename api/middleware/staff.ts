import type { Context, MiddlewareHandler } from "hono";
import { STAFF_AREAS, type StaffArea, roleReaches } from "../../contract/staff";
import type { ApiEnv } from "../context";
import { forbidden } from "../errors";
import { signedIn } from "../openapi";
import { requestIp } from "../request-ip";
import type { StaffActor } from "../services/staff/audit";
import { TWO_FACTOR_MESSAGES, isTwoFactorRequired, twoFactorStatus } from "../services/accounts/two-factor";
import { requireUser } from "./auth";

export const NOT_STAFF = "Your account cannot use this part of the back office";

/**
 * Route middleware of every /v1/admin route: 401 without a session, 403 when the account's role does
 * not reach the area. It runs before the route's validation, so a refused caller learns nothing
 * about the input the route takes.
 */
export function staffOnly(area: StaffArea, options: StaffRouteOptions = {}): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const user = requireUser(c);
    if (!roleReaches(user.role, area)) throw forbidden(NOT_STAFF);
    // When owners require two-factor sign-in, staff without it reach only what turns it on (ADR 027).
    if (!options.beforeTwoFactor && (await isTwoFactorRequired(c.get("db")))) {
      const status = await twoFactorStatus(c.get("db"), user.id);
      if (!status.enabled) throw forbidden(TWO_FACTOR_MESSAGES.enrolFirst);
    }
    await next();
  };
}

/** `beforeTwoFactor`: the route stays open to staff who must still turn on two-factor sign-in. */
export type StaffRouteOptions = { beforeTwoFactor?: boolean };

/** The staff member behind this request, for the audit log; call it after staffOnly has passed. */
export function staffActor(c: Context<ApiEnv>): StaffActor {
  const user = requireUser(c);
  return { userId: user.id, email: user.email, role: user.role, ip: requestIp(c), sessionId: user.sessionId };
}

/** What an admin route declares: the area it belongs to, as route middleware and in the reference. */
export function staffRoute(
  area: StaffArea,
  options: StaffRouteOptions = {},
): {
  security: typeof signedIn;
  middleware: MiddlewareHandler<ApiEnv>[];
  "x-staff-roles": string[];
} {
  return { security: signedIn, middleware: [staffOnly(area, options)], "x-staff-roles": [...STAFF_AREAS[area]] };
}
