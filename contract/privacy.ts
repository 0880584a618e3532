import { z } from "zod";
import { SECRET_INPUT_MAX_LENGTH, required } from "./account";
import { reasonField } from "./admin-customers";
import { orderStatusSchema } from "./order";

/*
 * A customer's own data (issue 29, ADR 044): the export they download, and the deletion of their account, by
 * themselves (with their password) or by staff at their request (with a reason). Shared by the API's route
 * declarations, the settings page and the back office.
 */

/** How a deleted customer's feedback, ticket messages and requests are shown to staff. */
export const DELETED_CUSTOMER = "Deleted customer";

export const PRIVACY_MESSAGES = {
  deleted: "Your account has been deleted. Your remaining balance was forfeited.",
  wrongPassword: "Your password is not correct",
  staffAccount: "A staff account cannot be deleted here. An owner can change its role to customer under Staff first.",
  ownAccount: "You cannot delete your own account from the back office. Use Settings, as a customer would.",
  alreadyDeleted: "This account has already been deleted",
} as const;

export const deleteAccountSchema = z.object({
  password: z
    .string(required("Please enter your password"))
    .min(1, "Please enter your password")
    .max(SECRET_INPUT_MAX_LENGTH, PRIVACY_MESSAGES.wrongPassword),
});

export const staffDeleteAccountSchema = z.object({ reason: reasonField });

const usd = z.number();
const instant = z.string();

/** Everything the store holds about one customer, without any secret of theirs (no token, hash or password hash). */
export const personalDataSchema = z.object({
  exportedAt: instant,
  profile: z.object({
    _id: z.string(),
    username: z.string(),
    email: z.string(),
    balance: usd,
    created: instant,
  }),
  orders: z.array(
    z.object({
      _id: z.string(),
      status: orderStatusSchema,
      createdAt: instant,
      paidAt: instant.nullable(),
      subtotal: usd,
      discount: usd,
      price: usd,
      paymentMethod: z.string(),
      coupon: z.string().nullable(),
      message: z.string(),
      email: z.string(),
      products: z.array(
        z.object({
          _id: z.string(),
          title: z.string(),
          subtitle: z.string(),
          durationDays: z.number().int(),
          quantity: z.number().int(),
          unitPrice: usd,
          price: usd,
          refunded: usd,
          credentials: z.array(
            z.object({
              username: z.string(),
              password: z.string(),
              deliveredAt: instant,
              warrantyEndsAt: instant.nullable(),
              replacedAt: instant.nullable(),
            }),
          ),
        }),
      ),
    }),
  ),
  tickets: z.array(
    z.object({
      _id: z.string(),
      orderId: z.string(),
      subject: z.string(),
      status: z.enum(["open", "closed"]),
      createdAt: instant,
      messages: z.array(z.object({ from: z.enum(["you", "Admin"]), message: z.string(), timestamp: instant })),
    }),
  ),
  requests: z.array(
    z.object({
      _id: z.string(),
      kind: z.enum(["replacement", "other"]),
      orderId: z.string(),
      message: z.string(),
      status: z.enum(["pending", "completed", "rejected"]),
      answer: z.string().nullable(),
      createdAt: instant,
      resolvedAt: instant.nullable(),
    }),
  ),
  feedback: z.array(
    z.object({
      _id: z.string(),
      product: z.string(),
      stars: z.number().int(),
      message: z.string(),
      reply: z.string().nullable(),
      createdAt: instant,
    }),
  ),
  ledger: z.array(
    z.object({
      _id: z.string(),
      type: z.enum(["in", "out", "refund", "adjustment"]),
      amount: usd,
      balanceAfter: usd,
      note: z.string(),
      orderId: z.string().nullable(),
      createdAt: instant,
    }),
  ),
  coupons: z.array(
    z.object({
      code: z.string(),
      kind: z.enum(["percent", "fixed"]),
      amount: z.number(),
      source: z.enum(["admin", "slots"]),
      active: z.boolean(),
      used: z.boolean(),
      expiresAt: instant.nullable(),
      createdAt: instant,
    }),
  ),
  spins: z.array(z.object({ discountPercent: z.number().int(), coupon: z.string(), createdAt: instant })),
  sessions: z.array(
    z.object({
      createdAt: instant,
      lastUsedAt: instant,
      expiresAt: instant,
      userAgent: z.string().nullable(),
      current: z.boolean(),
    }),
  ),
  devices: z.array(z.object({ createdAt: instant, lastUsedAt: instant })),
});
export type PersonalData = z.infer<typeof personalDataSchema>;

export const deletedAccountSchema = z.object({
  _id: z.string(),
  deletedAt: instant,
  forfeited: usd,
});
export type DeletedAccount = z.infer<typeof deletedAccountSchema>;

/** What /privacy-policy states about keeping data, from the store's configuration (RETENTION_DAYS). */
export const retentionPolicySchema = z.object({ retentionDays: z.number().int() });
