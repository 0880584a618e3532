import { z } from "zod";

/*
 * Who on the staff may do what (ADR 023). The API checks these on every /v1/admin call; the back
 * office's navigation shows only what the signed-in role reaches. Customers reach none of it.
 */

export const STAFF_ROLES = ["owner", "manager", "support"] as const;
export type StaffRole = (typeof STAFF_ROLES)[number];
/** Every account's role: a customer, or one of the staff roles. */
export const ROLES = ["customer", ...STAFF_ROLES] as const;
export type Role = (typeof ROLES)[number];

export const ROLE_LABELS: Record<StaffRole, string> = { owner: "Owner", manager: "Manager", support: "Support" };

/** Each part of the back office and the roles that reach it; the owner reaches everything. */
export const STAFF_AREAS = {
  /** The overview and the counts waiting for staff. */
  overview: ["owner", "manager", "support"],
  /** Staff accounts and roles, the audit log, security settings. */
  staff: ["owner"],
  audit: ["owner"],
  gateways: ["owner"],
  /** Categories, products, options, durations, pictures, stock. */
  catalogue: ["owner", "manager"],
  coupons: ["owner", "manager"],
  keys: ["owner", "manager"],
  content: ["owner", "manager"],
  /** Customers and orders: support reads, managers also change (balance, block). */
  customersRead: ["owner", "manager", "support"],
  customersWrite: ["owner", "manager"],
  /** Orders: every staff role reads them; owners and managers act on them (deliver, confirm, refund, cancel). */
  ordersRead: ["owner", "manager", "support"],
  ordersWrite: ["owner", "manager"],
  /** The customers' tickets, warranty and other requests, and feedback moderation. */
  support: ["owner", "support"],
  /** Which operator notifications go to mail and to the webhook. */
  notifications: ["owner"],
} as const satisfies Record<string, readonly StaffRole[]>;
export type StaffArea = keyof typeof STAFF_AREAS;
/** The areas' names, in the order above. */
export const STAFF_AREA_NAMES = Object.keys(STAFF_AREAS) as [StaffArea, ...StaffArea[]];

export function isStaffRole(role: string): role is StaffRole {
  return (STAFF_ROLES as readonly string[]).includes(role);
}

export function roleReaches(role: string, area: StaffArea): boolean {
  return isStaffRole(role) && (STAFF_AREAS[area] as readonly StaffRole[]).includes(role);
}

/** Staff sessions end after 12 hours, customers' after 30 days (ADR 023). */
export const STAFF_SESSION_HOURS = 12;

/** Audit log pages. */
export const AUDIT_PAGE_SIZE = 50;

export const staffRoleField = z.enum(ROLES, {
  errorMap: () => ({ message: "Choose a role: customer, owner, manager or support" }),
});
