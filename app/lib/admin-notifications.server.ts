import type { AppLoadContext } from "@remix-run/node";
import { z } from "zod";
import {
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
  type NotificationChannel,
  type NotificationEvent,
} from "../../contract/notifications";
import { pagerSchema } from "../../contract/answers/common";
import { apiCall, apiPayload } from "./api.server";

/* The back office's /v1 client for the operator's notifications (/v1/admin/notifications, owners only). */

const routingSchema = z.array(
  z.object({ event: z.enum(NOTIFICATION_EVENTS), label: z.string(), mail: z.boolean(), webhook: z.boolean() }),
);
const deliverySchema = z.object({
  _id: z.string(),
  event: z.string(),
  status: z.enum(NOTIFICATION_DELIVERY_STATUSES),
  attempts: z.number().int(),
  lastError: z.string().nullable(),
  createdAt: z.string(),
  nextAttemptAt: z.string(),
  sentAt: z.string().nullable(),
});
export type NotificationDelivery = z.infer<typeof deliverySchema>;
export type DeliveryStatusFilter = "" | NotificationDelivery["status"];

export function readNotificationSettings(
  context: AppLoadContext,
  request: Request,
  query: { page: number; status: DeliveryStatusFilter },
) {
  const search = new URLSearchParams({ page: String(query.page), status: query.status });
  return apiPayload(context, {
    path: `/v1/admin/notifications?${search}`,
    request,
    payload: z.object({
      channels: z.object({
        mail: z.object({ configured: z.boolean(), address: z.string().nullable() }),
        webhook: z.object({ configured: z.boolean(), origin: z.string().nullable() }),
      }),
      routing: routingSchema,
      deliveries: z.object({ records: z.array(deliverySchema), pager: pagerSchema }),
    }),
  });
}

export function saveNotificationRouting(
  context: AppLoadContext,
  request: Request,
  input: Record<NotificationChannel, NotificationEvent[]>,
) {
  return apiCall(context, { path: "/v1/admin/notifications/routing", request, body: input, payload: routingSchema });
}

export function retryNotification(context: AppLoadContext, request: Request, notificationId: string) {
  return apiCall(context, {
    path: `/v1/admin/notifications/deliveries/${encodeURIComponent(notificationId)}/retry`,
    request,
    body: {},
    payload: z.object({}),
  });
}
