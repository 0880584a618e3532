import { z } from "zod";
import { ROLES, STAFF_AREA_NAMES } from "../staff";
import { isoDateSchema, pageOf, withId } from "./common";

/* The back office's own answers: who is signed in, the overview, staff and the audit log (/v1/admin). */

const roleSchema = z.enum(ROLES);

/** The signed-in staff member (GET /v1/admin/me). */
export const staffMeSchema = z.object({
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  roleLabel: z.string(),
  areas: z.array(z.enum(STAFF_AREA_NAMES)).describe("the back-office areas this role reaches"),
  twoFactorEnrolmentRequired: z
    .boolean()
    .describe("owners require two-factor sign-in and this member has not turned it on"),
});
export type StaffMe = z.infer<typeof staffMeSchema>;

const periodSchema = z.object({ orders: z.number().int(), revenueCents: z.number().int() });

/** What waits for staff: the counts the overview and the navigation show. */
export const waitingSchema = z.object({
  ticketsWaiting: z.number().int().describe("open tickets whose last message is the customer's"),
  pendingRequests: z.number().int(),
  manualDeliveries: z.number().int().describe("paid orders with a manual line to deliver"),
});
export type Waiting = z.infer<typeof waitingSchema>;

/** The overview (GET /v1/admin/overview). */
export const overviewSchema = z.object({
  sales: z.object({ today: periodSchema, last7Days: periodSchema, last30Days: periodSchema }),
  perDay: z
    .array(z.object({ day: z.string(), orders: z.number().int(), revenueCents: z.number().int() }))
    .describe("the last 30 UTC days, oldest first, today last"),
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
  waiting: waitingSchema,
});
export type Overview = z.infer<typeof overviewSchema>;

/** An account with a staff role, or one just made a customer again (POST /v1/admin/staff/role). */
export const staffMemberSchema = withId({
  username: z.string(),
  email: z.string(),
  role: roleSchema,
  created: isoDateSchema,
  twoFactor: z
    .boolean()
    .describe("two-factor sign-in is on (an owner may reset it: POST /v1/admin/staff/{id}/two-factor/reset)"),
});
export type StaffMember = z.infer<typeof staffMemberSchema>;

/** Every account with a staff role (GET /v1/admin/staff). */
export const staffListSchema = z.object({ records: z.array(staffMemberSchema) });

const auditEntrySchema = withId({
  actorEmail: z.string().describe("the staff member's email when they made the change"),
  actorRole: z.string(),
  action: z.string().describe("such as `staff.role`"),
  objectType: z.string().describe("such as `product`"),
  objectId: z.string(),
  objectLabel: z.string(),
  changes: z
    .object({ before: z.record(z.unknown()).nullable(), after: z.record(z.unknown()).nullable() })
    .describe("the changed fields only; `before` is null for a creation, `after` for a deletion"),
  ip: z.string(),
  createdAt: isoDateSchema,
});
export type AuditEntry = z.infer<typeof auditEntrySchema>;

/** A page of the audit log (GET /v1/admin/audit). */
export const auditPageSchema = pageOf(auditEntrySchema);
export type AuditPage = z.infer<typeof auditPageSchema>;
