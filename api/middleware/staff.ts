import type { Context, MiddlewareHandler } from "hono";
import { STAFF_AREAS, type StaffArea, roleReaches } from "../../contract/staff";
import type { ApiEnv } from "../context";
import { forbidden } from "../errors";
import { signedIn } from "../openapi";
import { requestIp } from "../request-ip";
import type { StaffActor } from "../services/audit";
import { requireUser } from "./auth";

export const NOT_STAFF = "Your account cannot use this part of the back office";

/**
 * Route middleware of every /v1/admin route: 401 without a session, 403 when the account's role does
 * not reach the area. It runs before the route's validation, so a refused caller learns nothing
 * about the input the route takes.
 */
export function staffOnly(area: StaffArea): MiddlewareHandler<ApiEnv> {
  return async (c, next) => {
    const user = requireUser(c);
    if (!roleReaches(user.role, area)) throw forbidden(NOT_STAFF);
    await next();
  };
}

/** The staff member behind this request, for the audit log; call it after staffOnly has passed. */
export function staffActor(c: Context<ApiEnv>): StaffActor {
  const user = requireUser(c);
  return { userId: user.id, email: user.email, role: user.role, ip: requestIp(c) };
}

/** What an admin route declares: the area it belongs to, as route middleware and in the reference. */
export function staffRoute(area: StaffArea): {
  security: typeof signedIn;
  middleware: MiddlewareHandler<ApiEnv>[];
  "x-staff-roles": string[];
} {
  return { security: signedIn, middleware: [staffOnly(area)], "x-staff-roles": [...STAFF_AREAS[area]] };
}
