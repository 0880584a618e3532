import { z } from "zod";
import { FULFIL_MODES } from "../admin-catalogue";
import { ORDER_SOURCES, PAYMENT_STATUSES } from "../admin-orders";
import { BALANCE_ENTRY_TYPES } from "../balance";
import { ORDER_STATUSES } from "../browser/order";
import { isoDateSchema, pageOf, usdSchema, withId } from "./common";

/* The back office's orders (/v1/admin/orders, ADR 028). */

const orderStatusSchema = z.enum(ORDER_STATUSES);
const paymentMethodSchema = z.string().describe("how it was paid: a gateway name, `balance` or `key`");

const adminOrderRowSchema = withId({
  createdAt: isoDateSchema,
  email: z.string(),
  status: orderStatusSchema,
  paymentMethod: paymentMethodSchema,
  price: usdSchema,
  items: z.string().describe("`2 × Title, 1 × Title` of the lines bought"),
  waitingForDelivery: z.boolean(),
});
export type AdminOrderRow = z.infer<typeof adminOrderRowSchema>;

/** A page of orders, newest first (GET /v1/admin/orders). */
export const adminOrderPageSchema = pageOf(adminOrderRowSchema);
export type AdminOrderPage = z.infer<typeof adminOrderPageSchema>;

const adminOrderLineSchema = withId({
  productId: z.string(),
  optionId: z.string(),
  title: z.string(),
  option: z.string().describe("the option's title now"),
  subtitle: z.string(),
  duration: z.number().int(),
  quantity: z.number().int(),
  unitPrice: usdSchema,
  price: usdSchema,
  fulfilMode: z.enum(FULFIL_MODES),
  isReplacement: z.boolean(),
  delivered: z.number().int().describe("credentials on the line now (replaced ones not counted)"),
  deliveredEver: z.number().int(),
  toDeliver: z.number().int().describe("a paid manual line: how many credentials to paste"),
  refundedAt: isoDateSchema.nullable(),
  refunded: usdSchema,
  refundable: usdSchema.describe("what refunding this line would credit now"),
});

/** One order: lines, payments and their webhook events, ledger entries, mails, and what staff may do now. */
export const adminOrderSchema = withId({
  status: orderStatusSchema,
  source: z.enum(ORDER_SOURCES),
  email: z.string(),
  createdAt: isoDateSchema,
  updatedAt: isoDateSchema,
  paidAt: isoDateSchema.nullable(),
  expiresAt: isoDateSchema.nullable(),
  paymentMethod: paymentMethodSchema,
  subtotal: usdSchema,
  discount: usdSchema,
  price: usdSchema,
  currency: z.string(),
  coupon: z.object({ _id: z.string(), code: z.string() }).nullable(),
  message: z.string().describe("the customer's message to the admin"),
  clientIp: z.string().nullable(),
  customer: z.object({ _id: z.string(), email: z.string(), username: z.string(), balance: usdSchema }).nullable(),
  lines: z.array(adminOrderLineSchema),
  payments: z.array(
    withId({
      gateway: z.string(),
      status: z.enum(PAYMENT_STATUSES),
      amount: usdSchema,
      currency: z.string(),
      providerReference: z.string().nullable(),
      createdAt: isoDateSchema,
      paidAt: isoDateSchema.nullable(),
      confirmedBy: z.string().nullable().describe("the staff member who confirmed it by hand"),
      confirmationReason: z.string().nullable(),
      confirmable: z.boolean().describe("not paid yet, and the order is not paid by another payment"),
      events: z.array(z.object({ gateway: z.string(), eventId: z.string(), receivedAt: isoDateSchema })),
    }),
  ),
  ledger: z.array(
    withId({
      createdAt: isoDateSchema,
      type: z.enum(BALANCE_ENTRY_TYPES),
      amount: usdSchema,
      balanceAfter: usdSchema,
      note: z.string(),
      staff: z.string().nullable(),
    }),
  ),
  mails: z.array(
    withId({
      to: z.string(),
      subject: z.string(),
      status: z.string(),
      attempts: z.number().int(),
      createdAt: isoDateSchema,
      sentAt: isoDateSchema.nullable(),
    }),
  ),
  can: z.object({
    cancel: z.boolean(),
    resendMail: z.boolean(),
    refund: z.boolean(),
    refundReason: z.string().nullable().describe("why the order cannot be refunded at all"),
  }),
});
export type AdminOrder = z.infer<typeof adminOrderSchema>;

/** The order's delivered credentials by line, replaced and withdrawn ones included (POST …/credentials). */
export const orderCredentialsSchema = z.array(
  z.object({
    lineId: z.string(),
    title: z.string(),
    isReplacement: z.boolean(),
    refunded: z.boolean(),
    credentials: z.array(
      z.object({
        position: z.number().int(),
        username: z.string(),
        password: z.string(),
        deliveredAt: isoDateSchema,
        warrantyEnds: isoDateSchema.nullable(),
        replacedAt: isoDateSchema.nullable(),
      }),
    ),
  }),
);
export type OrderCredentials = z.infer<typeof orderCredentialsSchema>;

/** A manual line delivered (POST …/deliver). */
export const lineDeliveredSchema = z.object({
  delivered: z.number().int(),
  status: orderStatusSchema.describe("`completed` once no manual line waits, else `processing`"),
});

/** A payment confirmed by hand (POST …/confirm-payment): the order's status after it. */
export const paymentConfirmedSchema = z.object({ status: orderStatusSchema });

/** Credited to the customer's balance (POST …/refund). */
export const orderRefundedSchema = z.object({
  refunded: usdSchema,
  status: orderStatusSchema.describe("the order's status after it (a refunded manual line waits no more)"),
});

/** Done, with nothing more to say than the message (resend-mail, cancel, warranty/end). */
export const orderActionDoneSchema = z.object({});
