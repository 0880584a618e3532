import type { AppLoadContext } from "@remix-run/node";
import type { NotificationChannel, NotificationEvent } from "../../../contract/notifications";
import {
  notificationRetriedSchema,
  notificationRoutingSchema,
  notificationSettingsSchema,
} from "../../../contract/answers/admin-notifications";
import { type ListParams, readListPage } from "~/lib/admin-list.server";
import { apiCall } from "~/lib/api.server";

/* The back office's /v1 client for the operator's notifications (/v1/admin/notifications, owners only). */

export type { NotificationDelivery } from "../../../contract/answers/admin-notifications";

/** The channels, the routing and one page of webhook deliveries (`query`: the page and a `status`). */
export function readNotificationSettings(context: AppLoadContext, request: Request, query: ListParams) {
  return readListPage(context, request, { path: "/v1/admin/notifications", query, answer: notificationSettingsSchema });
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
