import { z } from "zod";
import { withId } from "./common";
import { orderStatusSchema } from "../order";

/*
 * A customer's data export (issue 29, ADR 044): the answer of /v1/user/export and, without the credentials' secrets,
 * of /v1/admin/customers/{id}/export (issue 37, ADR 054). Read by the server's /v1 client only. Like every answer
 * schema, only server code imports it.
 */

const usd = z.number();
const instant = z.string();

/** A credential delivered to the customer, as staff may see it in bulk: when, never what (ADR 054). */
const deliveredCredentialSchema = z.object({
  deliveredAt: instant,
  warrantyEndsAt: instant.nullable(),
  replacedAt: instant.nullable(),
});

/** The customer's own copy of what they bought: the accounts' usernames and passwords too. */
const ownCredentialSchema = deliveredCredentialSchema.extend({ username: z.string(), password: z.string() });

/** Everything the store holds about one customer, without any secret of theirs (no token, hash or password hash). */
const personalDataWith = <Credential extends z.ZodTypeAny>(credential: Credential) =>
  z.object({
    exportedAt: instant,
    profile: withId({
      username: z.string(),
      email: z.string(),
      balance: usd,
      created: instant,
    }),
    orders: z.array(
      withId({
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
          withId({
            title: z.string(),
            subtitle: z.string(),
            durationDays: z.number().int(),
            quantity: z.number().int(),
            unitPrice: usd,
            price: usd,
            refunded: usd,
            credentials: z.array(credential),
          }),
        ),
      }),
    ),
    tickets: z.array(
      withId({
        orderId: z.string(),
        subject: z.string(),
        status: z.enum(["open", "closed"]),
        createdAt: instant,
        messages: z.array(z.object({ from: z.enum(["you", "Admin"]), message: z.string(), timestamp: instant })),
      }),
    ),
    requests: z.array(
      withId({
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
      withId({
        product: z.string(),
        stars: z.number().int(),
        message: z.string(),
        reply: z.string().nullable(),
        createdAt: instant,
      }),
    ),
    ledger: z.array(
      withId({
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

/** The customer's own export (/settings): their credentials with usernames and passwords. */
export const personalDataSchema = personalDataWith(ownCredentialSchema);
export type PersonalData = z.infer<typeof personalDataSchema>;

/**
 * The same for staff answering the customer's request: no credential's username or password (a manual delivery's
 * pasted text is stored as those), so staff see sold accounts one order at a time, each view audited (ADR 054).
 */
export const staffCustomerDataSchema = personalDataWith(deliveredCredentialSchema);
export type StaffCustomerData = z.infer<typeof staffCustomerDataSchema>;
