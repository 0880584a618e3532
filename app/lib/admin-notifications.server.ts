import type { AppLoadContext } from "@remix-run/node";
import type { NotificationChannel, NotificationEvent } from "../../contract/notifications";
import {
  type NotificationDelivery,
  notificationRetriedSchema,
  notificationRoutingSchema,
  notificationSettingsSchema,
} from "../../contract/answers/admin-notifications";
import { apiCall, apiPayload } from "./api.server";

/* The back office's /v1 client for the operator's notifications (/v1/admin/notifications, owners only). */

export type { NotificationDelivery } from "../../contract/answers/admin-notifications";

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
    answer: notificationSettingsSchema,
  });
}

export function saveNotificationRouting(
  context: AppLoadContext,
  request: Request,
  input: Record<NotificationChannel, NotificationEvent[]>,
) {
  return apiCall(context, {
    path: "/v1/admin/notifications/routing",
    request,
    body: input,
    answer: notificationRoutingSchema,
  });
}

export function retryNotification(context: AppLoadContext, request: Request, notificationId: string) {
  return apiCall(context, {
    path: `/v1/admin/notifications/deliveries/${encodeURIComponent(notificationId)}/retry`,
    request,
    body: {},
    answer: notificationRetriedSchema,
  });
}
