import { z } from "zod";
import { ORDER_PAYMENT_METHODS, ORDER_STATUSES } from "../browser/order";
import { fulfilModeSchema, isoDateSchema, pageOf, publicIdSchema, usdSchema } from "./common";

/* The orders' answers: checkout, key redemption, one order, the customer's list, the recent-purchases toast. */

/** One line of an order: what was bought, and what was delivered. */
export const orderLineSchema = z.object({
  product: publicIdSchema,
  productOption: publicIdSchema,
  title: z.string().describe("the product's title"),
  subtitle: z.string().describe("the warranty's title"),
  picture: z.string(),
  description: z.string(),
  fullFillmode: fulfilModeSchema,
  deliveryNotes: z.string(),
  creds: z.array(z.string()).describe("the delivered credentials; [] while pending"),
  credIndexes: z
    .array(z.number().int())
    .describe("for each of `creds`, the `index` that /v1/request/createReplacement names it by (ADR 020)"),
  isReplacement: z.boolean(),
  refunded: z.boolean().describe("refunded to the balance by staff: `creds` is then [] (ADR 028)"),
  price: usdSchema.describe("the line total before an order discount"),
  quantity: z.number().int(),
  duration: z.number().int(),
  expiry: isoDateSchema.nullable().describe("ISO 8601; when the warranty ends, null before delivery"),
});
export type OrderLine = z.infer<typeof orderLineSchema>;

export const orderSchema = z.object({
  _id: publicIdSchema,
  status: z
    .enum(ORDER_STATUSES)
    .describe("`processing`: paid, and a line delivered by hand (`fullFillmode: manual`) is being processed"),
  createdAt: isoDateSchema,
  price: usdSchema.describe("what was paid"),
  paymentMethod: z.string().describe(`how it was paid: ${ORDER_PAYMENT_METHODS.join(", ")}`),
  products: z.array(orderLineSchema),
});
export type Order = z.infer<typeof orderSchema>;

/** One page of the customer's orders (POST /v1/order/read). */
export const orderPageSchema = pageOf(orderSchema);

/** A checkout's order (POST /v1/order/create). */
export const orderCreatedSchema = z.object({
  orderId: publicIdSchema,
  status: z
    .enum(ORDER_STATUSES)
    .describe("`pending` until the hosted payment arrives; paid from the balance: `completed`, or `processing`"),
  paymentUrl: z.string().url().optional().describe("hosted gateways: send the customer there"),
});

/** A redeemed key's completed order (POST /v1/order/redeemKey). */
export const keyRedeemedSchema = z.object({ orderId: publicIdSchema });

/** A paid order for the social-proof toast, masked (GET /v1/order/recent). */
export const recentOrderSchema = z.object({
  email: z.string().describe("masked, e.g. `jo***@g***.com`"),
  productTitle: z.string(),
  quantity: z.number().int(),
  timeAgo: z.string().describe("e.g. `5 minutes ago`"),
});
export type RecentOrder = z.infer<typeof recentOrderSchema>;
export const recentOrderListSchema = z.array(recentOrderSchema);
