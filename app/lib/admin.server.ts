import { type AppLoadContext, redirect } from "@remix-run/node";
import type { StaffArea } from "../../contract/staff";
import {
  recoveryCodesSchema,
  twoFactorOffSchema,
  twoFactorPolicySchema,
  twoFactorSetupSchema,
  twoFactorStatusSchema,
} from "../../contract/answers/admin-security";
import {
  type StaffMe,
  auditPageSchema,
  overviewSchema,
  staffListSchema,
  staffMeSchema,
  staffMemberSchema,
} from "../../contract/answers/admin-staff";
import { type ListParams, readListPage } from "./admin-list.server";
import { ApiUnavailableError, apiCall, apiPayload } from "./api.server";
import { getCurrentUser } from "./session.server";

/*
 * The /v1 client of the back office (/v1/admin/*). Pages call requireStaff first: a visitor who is not
 * staff gets exactly what any unknown address gives them (ADR 041), so the back office does not announce
 * itself: a guest the not-found page, a signed-in customer the way to /dashboard. Staff sign in at /login.
 */

export type { AuditEntry, Overview, StaffMe, StaffMember } from "../../contract/answers/admin-staff";

const notFoundPage = () => new Response("Not found", { status: 404 });

/** The staff member of this request, whose role reaches `area`; otherwise /login (guest) or a 404. */
export async function requireStaff(request: Request, context: AppLoadContext, area: StaffArea): Promise<StaffMe> {
  // What the catch-all route ($.tsx) does for an address nothing else claims.
  if (!(await getCurrentUser(request, context))) throw notFoundPage();
  const answer = await apiCall(context, { path: "/v1/admin/me", request, answer: staffMeSchema });
  if (!answer.ok) {
    if (answer.status === 403) throw redirect("/dashboard");
    if (answer.status === 401) throw notFoundPage();
    throw new ApiUnavailableError(`/v1/admin/me answered ${answer.status}`, answer.status);
  }
  if (!answer.payload.areas.includes(area)) throw notFoundPage();
  // Owners require two-factor sign-in and this member has not turned it on: that comes first (ADR 027).
  if (answer.payload.twoFactorEnrolmentRequired && new URL(request.url).pathname !== SECURITY_PAGE) {
    throw redirect(SECURITY_PAGE);
  }
  return answer.payload;
}

export const SECURITY_PAGE = "/admin/security";

export function readTwoFactor(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/two-factor", request, answer: twoFactorStatusSchema });
}

export function startTwoFactorSetup(context: AppLoadContext, request: Request) {
  return apiCall(context, {
    path: "/v1/admin/two-factor/setup",
    request,
    body: {},
    answer: twoFactorSetupSchema,
  });
}

export function enableTwoFactor(context: AppLoadContext, request: Request, code: string) {
  return apiCall(context, {
    path: "/v1/admin/two-factor/enable",
    request,
    body: { code },
    answer: recoveryCodesSchema,
  });
}

export function disableTwoFactor(context: AppLoadContext, request: Request, code: string) {
  return apiCall(context, {
    path: "/v1/admin/two-factor/disable",
    request,
    body: { code },
    answer: twoFactorOffSchema,
  });
}

export function setTwoFactorPolicy(context: AppLoadContext, request: Request, required: boolean) {
  return apiCall(context, {
    method: "PUT",
    path: "/v1/admin/two-factor/policy",
    request,
    body: { required },
    answer: twoFactorPolicySchema,
  });
}

export function readOverview(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/overview",
    request,
    answer: overviewSchema,
  });
}

export function listStaff(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/staff",
    request,
    answer: staffListSchema,
  });
}

export function setStaffRole(context: AppLoadContext, request: Request, input: { email: string; role: string }) {
  return apiCall(context, { path: "/v1/admin/staff/role", request, body: input, answer: staffMemberSchema });
}

/** An owner resets another staff member's two-factor sign-in (lost phone and recovery codes). */
export function resetStaffTwoFactor(context: AppLoadContext, request: Request, memberId: string) {
  return apiCall(context, {
    path: `/v1/admin/staff/${encodeURIComponent(memberId)}/two-factor/reset`,
    request,
    body: {},
    answer: staffMemberSchema,
  });
}

export function listAudit(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/audit", query, answer: auditPageSchema });
}
