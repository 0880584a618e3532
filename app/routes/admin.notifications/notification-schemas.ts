import { z } from "zod";
import { publicIdField } from "../../../contract/ids";
import { NOTIFICATION_EVENTS, notificationEventField } from "../../../contract/notifications";

/* The notification page's forms, parsed the same way by the browser (conform) and by the route's action. */

/**
 * The checked boxes of each channel's column; an unchecked box sends nothing, so a missing list is empty.
 * The action tells the forms apart by the submit button's `intent`.
 */
export const notificationRoutingSchema = z.object({
  mail: z.array(notificationEventField).max(NOTIFICATION_EVENTS.length).default([]),
  webhook: z.array(notificationEventField).max(NOTIFICATION_EVENTS.length).default([]),
});

export const notificationRetrySchema = z.object({
  notificationId: publicIdField("Notification not found"),
});
