import { z } from "@hono/zod-openapi";
import { emailField } from "../../../contract/account";
import { AUDIT_PAGE_SIZE, ROLE_LABELS, STAFF_AREA_NAMES, roleReaches, staffRoleField } from "../../../contract/staff";
import {
  auditPageSchema,
  overviewSchema,
  staffListSchema,
  staffMeSchema,
  staffMemberSchema,
} from "../../../contract/answers/admin-staff";
import { ok } from "../../http";
import { FAILURES, STAFF_FAILURES, adminRoute, filterField, idOf, pageField } from "./admin-route";
import { requireUser } from "../../middleware/auth";
import { staffActor } from "../../middleware/staff";
import { NO_BODY, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import { readOverview } from "../../services/staff/overview";
import { listAudit } from "../../services/staff/audit";
import { listStaff, setRole } from "../../services/staff/members";
import { TWO_FACTOR_MESSAGES, resetStaffTwoFactor, twoFactorStatus } from "../../services/accounts/two-factor";

/*
 * /v1/admin: who is signed in, the overview, staff and the audit log (ADR 023). Every route names
 * its area through staffRoute: 401 without a session, 403 for a role that does not reach it.
 */

export const staffRoutes = apiRouter()
  .openapi(
    adminRoute(
      "overview",
      {
        method: "get",
        path: "/me",
        summary: "The signed-in staff member and the areas their role reaches",
        responses: answers(200, staffMeSchema, "the staff member", STAFF_FAILURES),
      },
      { beforeTwoFactor: true },
    ),
    async (c) => {
      const user = requireUser(c);
      const areas = STAFF_AREA_NAMES.filter((area) => roleReaches(user.role, area));
      const roleLabel = ROLE_LABELS[user.role as keyof typeof ROLE_LABELS];
      const twoFactor = await twoFactorStatus(c.get("db"), user.id);
      const twoFactorEnrolmentRequired = twoFactor.requiredForAll && !twoFactor.enabled;
      return ok(c, {
        username: user.username,
        email: user.email,
        role: user.role,
        roleLabel,
        areas,
        twoFactorEnrolmentRequired,
      });
    },
  )
  .openapi(
    adminRoute("overview", {
      method: "get",
      path: "/overview",
      summary: "Sales today, in 7 and 30 days, orders per day, best sellers, low stock and what waits for staff",
      responses: answers(200, overviewSchema, "the overview", STAFF_FAILURES),
    }),
    async (c) => ok(c, await readOverview(c.get("db"))),
  )
  .openapi(
    adminRoute("staff", {
      method: "get",
      path: "/staff",
      summary: "Every account with a staff role",
      responses: answers(200, staffListSchema, "the staff", STAFF_FAILURES),
    }),
    async (c) => ok(c, { records: await listStaff(c.get("db")) }),
  )
  .openapi(
    adminRoute("staff", {
      method: "post",
      path: "/staff/role",
      summary: "Give an account a role (`customer` takes staff access away); its sessions end; audited",
      description: "The account must exist (the person signs up first). The last owner cannot be demoted.",
      request: { body: jsonBody(z.object({ email: emailField, role: staffRoleField })) },
      responses: answers(200, staffMemberSchema, "the account with its new role", {
        ...FAILURES,
        404: "no account has this email",
        409: "it would leave the store without an owner",
      }),
    }),
    async (c) => {
      const member = await setRole(c.get("db"), staffActor(c), c.req.valid("json"));
      return ok(
        c,
        member,
        `${member.email} is now ${member.role === "customer" ? "a customer" : ROLE_LABELS[member.role]}`,
      );
    },
  )
  .openapi(
    adminRoute("staff", {
      method: "post",
      path: "/staff/{userId}/two-factor/reset",
      summary:
        "Reset another staff member's two-factor sign-in (lost phone and recovery codes); their sessions end; audited",
      description:
        "The member's authenticator secret and recovery codes are removed and every session of theirs ends: they " +
        "sign in with their password and turn two-factor sign-in on again (at once, when owners require it). " +
        "Not on oneself: one's own is turned off with a code (POST /v1/admin/two-factor/disable).",
      request: { params: pathParams("userId"), body: NO_BODY },
      responses: answers(200, staffMemberSchema, "the member, two-factor sign-in off", {
        ...FAILURES,
        404: "no staff member has this id",
        409: "it is the caller's own account, or the member's two-factor sign-in is not on",
      }),
    }),
    async (c) => {
      const memberId = idOf(c.req.valid("param").userId, TWO_FACTOR_MESSAGES.noSuchStaff);
      const member = await resetStaffTwoFactor(c.get("db"), staffActor(c), memberId);
      return ok(
        c,
        member,
        `${member.email}'s two-factor sign-in is reset: they sign in with their password and set it up again`,
      );
    },
  )
  .openapi(
    adminRoute("audit", {
      method: "get",
      path: "/audit",
      summary: `The audit log, newest first, ${AUDIT_PAGE_SIZE} a page`,
      description:
        "Filters: `actor` (part of the email), `action` (part of it), `objectType` (exact), `object` (an id or part of the name).",
      request: {
        query: z.object({
          page: pageField,
          actor: filterField("actor", "part of the staff member's email"),
          action: filterField("action", "part of the action, such as `stock` or `staff.role`"),
          objectType: filterField("objectType", "the kind of object, such as `product`"),
          object: filterField("object", "the object's id, or part of its name"),
        }),
      },
      responses: answers(200, auditPageSchema, "a page of entries", FAILURES),
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listAudit(c.get("db"), { ...query, objectId: query.object }));
    },
  );
