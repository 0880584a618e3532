import { z } from "@hono/zod-openapi";
import {
  NOTIFICATION_DELIVERIES_PAGE_SIZE,
  NOTIFICATION_DELIVERY_STATUSES,
  NOTIFICATION_EVENTS,
  notificationEventField,
} from "../../../contract/notifications";
import {
  notificationRetriedSchema,
  notificationRoutingSchema,
  notificationSettingsSchema,
} from "../../../contract/answers/admin-notifications";
import { ok } from "../../http";
import { staffActor } from "../../middleware/staff";
import { NO_BODY, answers, apiRouter, jsonBody, pathParams } from "../../openapi";
import {
  NOTIFICATION_MESSAGES,
  channelStatus,
  listDeliveries,
  readRoutingView,
  retryNotification,
  saveNotificationRouting,
} from "../../services/notifications/admin";
import { PUBLIC_ID_PATTERN } from "../../../contract/ids";
import { notFound } from "../../errors";
import { FAILURES, STAFF_FAILURES, adminRoute, pageField } from "./admin-route";

/*
 * /v1/admin/notifications (ADR 030, owners only): which operator notifications go to mail and to the
 * webhook, whether each channel is configured, and the webhook's deliveries.
 */

export const notificationRoutes = apiRouter()
  .openapi(
    adminRoute("notifications", {
      method: "get",
      path: "/notifications",
      summary: `The operator's notification settings and the webhook's deliveries, newest first, ${NOTIFICATION_DELIVERIES_PAGE_SIZE} a page`,
      request: {
        query: z.object({
          page: pageField,
          status: z
            .enum(["", ...NOTIFICATION_DELIVERY_STATUSES])
            .default("")
            .openapi({ param: { name: "status", in: "query" }, description: "only deliveries in this state" }),
        }),
      },
      responses: answers(200, notificationSettingsSchema, "the settings and a page of deliveries", FAILURES),
    }),
    async (c) => {
      const db = c.get("db");
      return ok(c, {
        channels: channelStatus(c.get("config")),
        routing: await readRoutingView(db),
        deliveries: await listDeliveries(db, c.req.valid("query")),
      });
    },
  )
  .openapi(
    adminRoute("notifications", {
      method: "post",
      path: "/notifications/routing",
      summary: "Choose which events go to mail and which to the webhook; audited",
      description: "Each list names the events the channel gets; every event not named is off for it.",
      request: {
        body: jsonBody(
          z.object({
            mail: z.array(notificationEventField).max(NOTIFICATION_EVENTS.length),
            webhook: z.array(notificationEventField).max(NOTIFICATION_EVENTS.length),
          }),
        ),
      },
      responses: answers(200, notificationRoutingSchema, "the saved settings", FAILURES),
    }),
    async (c) =>
      ok(
        c,
        await saveNotificationRouting(c.get("db"), staffActor(c), c.req.valid("json")),
        NOTIFICATION_MESSAGES.saved,
      ),
  )
  .openapi(
    adminRoute("notifications", {
      method: "post",
      path: "/notifications/deliveries/{notificationId}/retry",
      summary: "Send a failed notification again now; audited",
      request: { params: pathParams("notificationId"), body: NO_BODY },
      responses: answers(200, notificationRetriedSchema, "queued again", {
        ...STAFF_FAILURES,
        404: "no such notification",
        409: "the notification is not failed",
      }),
    }),
    async (c) => {
      const { notificationId } = c.req.valid("param");
      if (!PUBLIC_ID_PATTERN.test(notificationId)) throw notFound(NOTIFICATION_MESSAGES.notFound);
      await retryNotification(c.get("db"), staffActor(c), notificationId);
      return ok(c, {}, NOTIFICATION_MESSAGES.retrying);
    },
  );
