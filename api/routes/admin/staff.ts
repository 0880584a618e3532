import { createRoute, z } from "@hono/zod-openapi";
import { emailField } from "../../../contract/account";
import {
  AUDIT_PAGE_SIZE,
  ROLE_LABELS,
  STAFF_AREAS,
  type StaffArea,
  roleReaches,
  staffRoleField,
} from "../../../contract/staff";
import { ok } from "../../http";
import { requireUser } from "../../middleware/auth";
import { staffActor, staffRoute } from "../../middleware/staff";
import { BAD_INPUT, UNAUTHORIZED, answers, apiRouter, jsonBody, pagerSchema, publicIdSchema } from "../../openapi";
import { readOverview } from "../../services/admin-overview";
import { listAudit } from "../../services/audit";
import { listStaff, setRole } from "../../services/staff";
import { twoFactorStatus } from "../../services/two-factor";

/*
 * /v1/admin: who is signed in, the overview, staff and the audit log (ADR 023). Every route names
 * its area through staffRoute: 401 without a session, 403 for a role that does not reach it.
 */

const period = z.object({ orders: z.number().int(), revenueCents: z.number().int() });
const overviewSchema = z
  .object({
    sales: z.object({ today: period, last7Days: period, last30Days: period }),
    perDay: z
      .array(z.object({ day: z.string(), orders: z.number().int(), revenueCents: z.number().int() }))
      .openapi({ description: "the last 30 UTC days, oldest first, today last" }),
    topProducts: z.array(
      z.object({ _id: z.string(), title: z.string(), quantity: z.number().int(), revenueCents: z.number().int() }),
    ),
    lowStock: z.array(
      z.object({
        optionId: z.string(),
        product: z.string(),
        option: z.string(),
        free: z.number().int(),
        threshold: z.number().int(),
      }),
    ),
    waiting: z.object({
      ticketsWaiting: z.number().int().openapi({ description: "open tickets whose last message is the customer's" }),
      pendingRequests: z.number().int(),
      manualDeliveries: z.number().int().openapi({ description: "paid orders with a manual line to deliver" }),
    }),
  })
  .openapi("AdminOverview");

export const STAFF_ONLY = { 403: "the account's role does not reach this part of the back office" };
const ADMIN = ["Back office"];

const roleSchema = z.enum(["customer", "owner", "manager", "support"]);
const memberSchema = z
  .object({ _id: publicIdSchema, username: z.string(), email: z.string(), role: roleSchema, created: z.string() })
  .openapi("StaffMember");
const auditEntrySchema = z
  .object({
    _id: publicIdSchema,
    actorEmail: z.string().openapi({ description: "the staff member's email when they made the change" }),
    actorRole: z.string(),
    action: z.string().openapi({ example: "staff.role" }),
    objectType: z.string().openapi({ example: "user" }),
    objectId: z.string(),
    objectLabel: z.string(),
    changes: z
      .object({ before: z.record(z.unknown()).nullable(), after: z.record(z.unknown()).nullable() })
      .openapi({ description: "the changed fields only; `before` is null for a creation, `after` for a deletion" }),
    ip: z.string(),
    createdAt: z.string().openapi({ description: "ISO 8601" }),
  })
  .openapi("AuditEntry");

const pageField = z.coerce
  .number()
  .int("Page must be a whole number")
  .min(1, "Page starts at 1")
  .max(100_000)
  .default(1)
  .openapi({ param: { name: "page", in: "query" } });
const filterField = (name: string, description: string) =>
  z
    .string()
    .trim()
    .max(200, "Filter is too long")
    .default("")
    .openapi({ param: { name, in: "query" }, description });

export const staffRoutes = apiRouter()
  .openapi(
    createRoute({
      method: "get",
      path: "/me",
      tags: ADMIN,
      summary: "The signed-in staff member and the areas their role reaches",
      ...staffRoute("overview", { beforeTwoFactor: true }),
      responses: answers(
        200,
        z.object({
          username: z.string(),
          email: z.string(),
          role: roleSchema,
          roleLabel: z.string(),
          areas: z.array(z.string()).openapi({ description: "the back-office areas this role reaches" }),
          twoFactorEnrolmentRequired: z
            .boolean()
            .openapi({ description: "owners require two-factor sign-in and this member has not turned it on" }),
        }),
        "the staff member",
        { ...UNAUTHORIZED, ...STAFF_ONLY },
      ),
    }),
    async (c) => {
      const user = requireUser(c);
      const areas = (Object.keys(STAFF_AREAS) as StaffArea[]).filter((area) => roleReaches(user.role, area));
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
    createRoute({
      method: "get",
      path: "/overview",
      tags: ADMIN,
      summary: "Sales today, in 7 and 30 days, orders per day, best sellers, low stock and what waits for staff",
      ...staffRoute("overview"),
      responses: answers(200, overviewSchema, "the overview", { ...UNAUTHORIZED, ...STAFF_ONLY }),
    }),
    async (c) => ok(c, await readOverview(c.get("db"))),
  )
  .openapi(
    createRoute({
      method: "get",
      path: "/staff",
      tags: ADMIN,
      summary: "Every account with a staff role",
      ...staffRoute("staff"),
      responses: answers(200, z.object({ records: z.array(memberSchema) }), "the staff", {
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
      }),
    }),
    async (c) => ok(c, { records: await listStaff(c.get("db")) }),
  )
  .openapi(
    createRoute({
      method: "post",
      path: "/staff/role",
      tags: ADMIN,
      summary: "Give an account a role (`customer` takes staff access away); its sessions end; audited",
      description: "The account must exist (the person signs up first). The last owner cannot be demoted.",
      ...staffRoute("staff"),
      request: { body: jsonBody(z.object({ email: emailField, role: staffRoleField })) },
      responses: answers(200, memberSchema, "the account with its new role", {
        ...BAD_INPUT,
        ...UNAUTHORIZED,
        ...STAFF_ONLY,
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
    createRoute({
      method: "get",
      path: "/audit",
      tags: ADMIN,
      summary: `The audit log, newest first, ${AUDIT_PAGE_SIZE} a page`,
      description:
        "Filters: `actor` (part of the email), `action` (part of it), `objectType` (exact), `object` (an id or part of the name).",
      ...staffRoute("audit"),
      request: {
        query: z.object({
          page: pageField,
          actor: filterField("actor", "part of the staff member's email"),
          action: filterField("action", "part of the action, such as `stock` or `staff.role`"),
          objectType: filterField("objectType", "the kind of object, such as `product`"),
          object: filterField("object", "the object's id, or part of its name"),
        }),
      },
      responses: answers(
        200,
        z.object({ records: z.array(auditEntrySchema), pager: pagerSchema }),
        "a page of entries",
        {
          ...BAD_INPUT,
          ...UNAUTHORIZED,
          ...STAFF_ONLY,
        },
      ),
    }),
    async (c) => {
      const query = c.req.valid("query");
      return ok(c, await listAudit(c.get("db"), { ...query, objectId: query.object }));
    },
  );
