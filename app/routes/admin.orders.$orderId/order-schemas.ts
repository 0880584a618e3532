import { z } from "zod";
import {
  confirmationReasonField,
  confirmationReferenceField,
  deliveryCredentialsField,
  orderLineIdField,
  paymentIdField,
  refundLineIdsField,
} from "../../../contract/admin-orders";

/* The forms of a back-office order's page (ADR 028), parsed the same way by conform and by the route's action. */

/** Each form's submit button names its intent; forms without fields (show, resend, cancel, refund all) need no schema. */
export const ORDER_INTENTS = [
  "credentials",
  "deliver",
  "confirm",
  "refund-lines",
  "refund-order",
  "resend",
  "cancel",
] as const;
export type OrderIntent = (typeof ORDER_INTENTS)[number];

export const deliverSchema = z.object({ lineId: orderLineIdField, credentials: deliveryCredentialsField });
export const confirmPaymentSchema = z.object({
  paymentId: paymentIdField,
  reference: confirmationReferenceField,
  reason: confirmationReasonField,
});
export const refundLinesSchema = z.object({ lineIds: refundLineIdsField });
