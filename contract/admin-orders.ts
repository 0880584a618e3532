import { z } from "zod";
import { publicIdField } from "./ids";

/* The back office's orders (ADR 028): the search's limits and the action forms' fields, shared by the API and the UI. */

export const ADMIN_ORDERS_PAGE_SIZE = 50;
export const ORDER_FILTER_MAX_LENGTH = 200;
/** A day of the search's date range, UTC, inclusive at both ends. */
export const ORDER_DATE_PATTERN = /^\d{4}-\d{2}-\d{2}$/;

export { ORDER_PAYMENT_METHODS } from "./browser/order";

/** Where an order comes from: a checkout, a redeemed key, or a replacement staff or the warranty delivered. */
export const ORDER_SOURCES = ["checkout", "redeem", "replacement"] as const;

export { PAYMENT_STATUSES } from "./browser/order";

/** The most text one delivery may paste, and the most credentials it may hold. */
export const DELIVERY_TEXT_MAX_LENGTH = 20_000;
export const DELIVERY_MAX_CREDENTIALS = 999;
export const CONFIRMATION_REFERENCE_MAX_LENGTH = 200;
export const CONFIRMATION_REASON_MAX_LENGTH = 500;

export const deliveryCredentialsField = z
  .string({ required_error: "Paste the credentials, one username:password per line" })
  .trim()
  .min(1, "Paste the credentials, one username:password per line")
  .max(DELIVERY_TEXT_MAX_LENGTH, `Paste at most ${DELIVERY_TEXT_MAX_LENGTH} characters`);

export const confirmationReferenceField = z
  .string({ required_error: "Enter the payment's reference at the provider" })
  .trim()
  .min(1, "Enter the payment's reference at the provider")
  .max(CONFIRMATION_REFERENCE_MAX_LENGTH, `The reference is at most ${CONFIRMATION_REFERENCE_MAX_LENGTH} characters`);

export const confirmationReasonField = z
  .string({ required_error: "Say why you confirm this payment by hand" })
  .trim()
  .min(3, "Say why you confirm this payment by hand")
  .max(CONFIRMATION_REASON_MAX_LENGTH, `The reason is at most ${CONFIRMATION_REASON_MAX_LENGTH} characters`);

export const orderLineIdField = publicIdField("Choose a line of this order");
export const paymentIdField = publicIdField("Choose a payment of this order");
export const orderOptionIdField = publicIdField("Choose a product of this order");

export const refundLineIdsField = z
  .array(orderLineIdField, { required_error: "Choose the lines to refund" })
  .min(1, "Choose the lines to refund")
  .max(100, "Choose at most 100 lines");
