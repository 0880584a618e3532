import { z } from "zod";
import { NOTIFICATION_DELIVERY_STATUSES, NOTIFICATION_EVENTS } from "../notifications";
import { isoDateSchema, pageOf, withId } from "./common";

/* The operator's notifications (/v1/admin/notifications, ADR 030, owners only). */

/** Every event, with the channels it goes to (also POST /v1/admin/notifications/routing). */
export const notificationRoutingSchema = z
  .array(z.object({ event: z.enum(NOTIFICATION_EVENTS), label: z.string(), mail: z.boolean(), webhook: z.boolean() }))
  .describe("every event, with the channels it goes to");
export type RoutingView = z.infer<typeof notificationRoutingSchema>;

/** Whether each channel is configured: the webhook's origin only, since the rest of its URL may carry a token. */
export const channelStatusSchema = z.object({
  mail: z.object({ configured: z.boolean(), address: z.string().nullable() }),
  webhook: z.object({
    configured: z.boolean(),
    origin: z.string().nullable().describe("the receiver's origin; never its path"),
  }),
});
export type ChannelStatus = z.infer<typeof channelStatusSchema>;

const deliverySchema = withId({
  event: z.string(),
  status: z.enum(NOTIFICATION_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable().describe("why the last attempt failed (never the URL)"),
  createdAt: isoDateSchema,
  nextAttemptAt: isoDateSchema,
  sentAt: isoDateSchema.nullable(),
});
export type NotificationDelivery = z.infer<typeof deliverySchema>;

/** A page of the webhook's deliveries, newest first. */
export const deliveryPageSchema = pageOf(deliverySchema);
export type DeliveryPage = z.infer<typeof deliveryPageSchema>;

/** The settings and a page of deliveries (GET /v1/admin/notifications). */
export const notificationSettingsSchema = z.object({
  channels: channelStatusSchema,
  routing: notificationRoutingSchema,
  deliveries: deliveryPageSchema,
});

/** A failed notification queued again (POST /v1/admin/notifications/deliveries/{notificationId}/retry). */
export const notificationRetriedSchema = z.object({});
