import { type AppLoadContext, redirect } from "@remix-run/node";
import { z } from "zod";
import type { StaffArea } from "../../contract/staff";
import { ApiUnavailableError, apiCall, apiPayload } from "./api.server";
import { getCurrentUser } from "./session.server";

/*
 * The /v1 client of the back office (/v1/admin/*). Pages call requireStaff first: a visitor who is not
 * staff gets exactly what any unknown address gives them (ADR 041), so the back office does not announce
 * itself: a guest the not-found page, a signed-in customer the way to /dashboard. Staff sign in at /login.
 */

const roleSchema = z.enum(["customer", "owner", "manager", "support"]);
const meSchema = z.object({
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  roleLabel: z.string(),
  areas: z.array(z.string()),
  twoFactorEnrolmentRequired: z.boolean(),
});
export type StaffMe = z.infer<typeof meSchema>;

const notFoundPage = () => new Response("Not found", { status: 404 });

/** The staff member of this request, whose role reaches `area`; otherwise /login (guest) or a 404. */
export async function requireStaff(request: Request, context: AppLoadContext, area: StaffArea): Promise<StaffMe> {
  // What the catch-all route ($.tsx) does for an address nothing else claims.
  if (!(await getCurrentUser(request, context))) throw notFoundPage();
  const answer = await apiCall(context, { path: "/v1/admin/me", request, payload: meSchema });
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

const statusSchema = z.object({
  enabled: z.boolean(),
  pending: z.boolean(),
  recoveryCodesLeft: z.number(),
  requiredForAll: z.boolean(),
});

export function readTwoFactor(context: AppLoadContext, request: Request) {
  return apiPayload(context, { path: "/v1/admin/two-factor", request, payload: statusSchema });
}

export function startTwoFactorSetup(context: AppLoadContext, request: Request) {
  return apiCall(context, {
    path: "/v1/admin/two-factor/setup",
    request,
    body: {},
    payload: z.object({ secret: z.string(), uri: z.string(), qrSvg: z.string() }),
  });
}

export function enableTwoFactor(context: AppLoadContext, request: Request, code: string) {
  return apiCall(context, {
    path: "/v1/admin/two-factor/enable",
    request,
    body: { code },
    payload: z.object({ recoveryCodes: z.array(z.string()) }),
  });
}

export function disableTwoFactor(context: AppLoadContext, request: Request, code: string) {
  return apiCall(context, { path: "/v1/admin/two-factor/disable", request, body: { code }, payload: z.object({}) });
}

export function setTwoFactorPolicy(context: AppLoadContext, request: Request, required: boolean) {
  return apiCall(context, {
    method: "PUT",
    path: "/v1/admin/two-factor/policy",
    request,
    body: { required },
    payload: z.object({ required: z.boolean() }),
  });
}

export const pagerSchema = z.object({
  page: z.number().int(),
  previous: z.number().int().nullable(),
  next: z.number().int().nullable(),
  total: z.number().int(),
  pages: z.number().int(),
});
export type Pager = z.infer<typeof pagerSchema>;

const period = z.object({ orders: z.number(), revenueCents: z.number() });
const overviewSchema = z.object({
  sales: z.object({ today: period, last7Days: period, last30Days: period }),
  perDay: z.array(z.object({ day: z.string(), orders: z.number(), revenueCents: z.number() })),
  topProducts: z.array(
    z.object({ _id: z.string(), title: z.string(), quantity: z.number(), revenueCents: z.number() }),
  ),
  lowStock: z.array(
    z.object({
      optionId: z.string(),
      product: z.string(),
      option: z.string(),
      free: z.number(),
      threshold: z.number(),
    }),
  ),
  waiting: z.object({ ticketsWaiting: z.number(), pendingRequests: z.number(), manualDeliveries: z.number() }),
});
export type Overview = z.infer<typeof overviewSchema>;

export function readOverview(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/overview",
    request,
    payload: overviewSchema,
  });
}

const memberSchema = z.object({
  _id: z.string(),
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  created: z.string(),
});

export function listStaff(context: AppLoadContext, request: Request) {
  return apiPayload(context, {
    path: "/v1/admin/staff",
    request,
    payload: z.object({ records: z.array(memberSchema) }),
  });
}

export function setStaffRole(context: AppLoadContext, request: Request, input: { email: string; role: string }) {
  return apiCall(context, { path: "/v1/admin/staff/role", request, body: input, payload: memberSchema });
}

const auditEntrySchema = z.object({
  _id: z.string(),
  actorEmail: z.string(),
  actorRole: z.string(),
  action: z.string(),
  objectType: z.string(),
  objectId: z.string(),
  objectLabel: z.string(),
  changes: z.object({
    before: z.record(z.unknown()).nullable(),
    after: z.record(z.unknown()).nullable(),
  }),
  ip: z.string(),
  createdAt: z.string(),
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;
export type AuditFilters = { actor: string; action: string; objectType: string; object: string };

export function listAudit(context: AppLoadContext, request: Request, query: AuditFilters & { page: number }) {
  const search = new URLSearchParams({ ...query, page: String(query.page) });
  return apiPayload(context, {
    path: `/v1/admin/audit?${search}`,
    request,
    payload: z.object({ records: z.array(auditEntrySchema), pager: pagerSchema }),
  });
}
