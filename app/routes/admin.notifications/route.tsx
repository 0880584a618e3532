import { getFormProps } from "@conform-to/react";
import type { ActionFunctionArgs, LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Form, useLoaderData } from "@remix-run/react";
import { NOTIFICATION_DELIVERY_STATUSES } from "../../../contract/notifications";
import { z } from "zod";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime, secondaryButtonClass, td, th } from "~/components/admin/admin-ui";
import { notificationRetrySchema, notificationRoutingSchema } from "./notification-schemas";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type NotificationDelivery,
  readNotificationSettings,
  retryNotification,
  saveNotificationRouting,
} from "./notifications.server";
import { formAction, intentOf } from "~/lib/form-action.server";
import { listChoice, listQuery } from "~/lib/list-query";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Notifications | Back office" }];

const STATUS_LABELS: Record<NotificationDelivery["status"], string> = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
};

const STATUS_CHOICES = NOTIFICATION_DELIVERY_STATUSES.map((value) => ({ value, label: STATUS_LABELS[value] }));
const querySchema = z.object({ status: listChoice(NOTIFICATION_DELIVERY_STATUSES) });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "notifications");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, settings: await readNotificationSettings(context, request, query) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "notifications");
  const here = `/admin/notifications${new URL(request.url).search}`;
  const formData = await request.formData();
  if (intentOf(formData, ["routing", "retry"]) === "retry") {
    return formAction(formData, {
      schema: notificationRetrySchema,
      // A browser posts only listed ids: any refusal of the schema means the row is gone.
      toast: { context, to: here, message: (refusal) => refusal?.message ?? "Notification not found" },
      call: ({ notificationId }) => retryNotification(context, request, notificationId),
      done: (answer) => redirectWithSuccess(context, here, answer.message),
    });
  }
  return formAction(formData, {
    form: "notification-routing",
    schema: notificationRoutingSchema,
    call: (routing) => saveNotificationRouting(context, request, routing),
    done: (answer) => redirectWithSuccess(context, here, answer.message),
  });
}

type Settings = Awaited<ReturnType<typeof loader>>["settings"];
type Query = Awaited<ReturnType<typeof loader>>["query"];

function Channels({ channels }: { channels: Settings["channels"] }) {
  return (
    <section aria-labelledby="channels-title" className="rounded-xl border border-slate-200 bg-white p-4">
      <h2 id="channels-title" className="mb-2 text-lg font-bold">
        Channels
      </h2>
      <dl className="grid grid-cols-1 gap-2 sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="font-semibold">Mail</dt>
        <dd className="break-words">
          {channels.mail.configured ? (
            <>On: mailed to {channels.mail.address}.</>
          ) : (
            <>Off: set OPERATOR_EMAIL to have notifications mailed.</>
          )}
        </dd>
        <dt className="font-semibold">Webhook</dt>
        <dd className="break-words">
          {channels.webhook.configured ? (
            <>
              On: signed requests to {channels.webhook.origin} (the rest of the address is not shown: it may hold a
              token).
            </>
          ) : (
            <>Off: set NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET to have notifications posted.</>
          )}
        </dd>
      </dl>
    </section>
  );
}

function RoutingForm({ routing }: { routing: Settings["routing"] }) {
  const [form, fields] = useRepliedSchemaForm(notificationRoutingSchema, "notification-routing");
  return (
    <section aria-labelledby="routing-title" className="flex flex-col gap-3">
      <h2 id="routing-title" className="text-lg font-bold">
        Which events go where
      </h2>
      <p className="text-sm text-slate-600">
        A channel that is off above gets nothing, whatever is ticked; what is ticked for it applies once it is on.
      </p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-3">
        <FormErrors form={form} />
        {/* Three narrow columns fit a phone: unlike the wider lists, this table does not scroll sideways. */}
        <div className="overflow-hidden rounded-xl border border-slate-200 bg-white">
          <table className="w-full text-left text-sm">
            <caption className="sr-only">Events and the channels they go to</caption>
            <thead>
              <tr>
                <th className={th}>Event</th>
                <th className={`${th} text-center`}>Mail</th>
                <th className={`${th} text-center`}>Webhook</th>
              </tr>
            </thead>
            <tbody>
              {routing.map((row) => (
                <tr key={row.event}>
                  <td className={td}>
                    {row.label} <code className="block text-xs break-all text-slate-500">{row.event}</code>
                  </td>
                  {(["mail", "webhook"] as const).map((channel) => (
                    <td key={channel} className={`${td} text-center`}>
                      <input
                        type="checkbox"
                        name={fields[channel].name}
                        value={row.event}
                        defaultChecked={row[channel]}
                        aria-label={`${channel === "mail" ? "Mail" : "Webhook"}: ${row.label}`}
                        className="size-5"
                      />
                    </td>
                  ))}
                </tr>
              ))}
            </tbody>
          </table>
        </div>
        <div>
          <SubmitButton intent="routing" pendingText="Saving…">
            Save notification settings
          </SubmitButton>
        </div>
      </Form>
    </section>
  );
}

function Deliveries({ query, deliveries }: { query: Query; deliveries: Settings["deliveries"] }) {
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <h2 id="deliveries-title" className="text-lg font-bold">
        Webhook deliveries
      </h2>
      <AdminList
        label="Webhook deliveries, newest first"
        pathname="/admin/notifications"
        query={query}
        filters={[{ name: "status", label: "State", any: "All", choices: STATUS_CHOICES }]}
        submit="Show"
        empty={["No webhook notification is in this state.", "No notification was sent to the webhook yet."]}
        list={deliveries}
        columns={[
          { header: "Created", cell: (delivery) => <AdminTime iso={delivery.createdAt} /> },
          { header: "Event", cell: (delivery) => <code>{delivery.event}</code> },
          { header: "State", cell: (delivery) => STATUS_LABELS[delivery.status] },
          { header: "Attempts", cell: (delivery) => delivery.attempts },
          { header: "Last error", className: "break-words", cell: (delivery) => delivery.lastError ?? "—" },
          { header: "Sent or next attempt", cell: (delivery) => <SentOrRetry delivery={delivery} /> },
        ]}
      />
    </section>
  );
}

function SentOrRetry({ delivery }: { delivery: NotificationDelivery }) {
  if (delivery.status !== "failed") return <AdminTime iso={delivery.sentAt ?? delivery.nextAttemptAt} />;
  return (
    <Form method="post" preventScrollReset>
      <input type="hidden" name="notificationId" value={delivery._id} />
      <button type="submit" name="intent" value="retry" className={secondaryButtonClass}>
        Retry now
      </button>
    </Form>
  );
}

export default function NotificationsPage() {
  const { query, settings } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Notifications">
        What the store tells its operator, by mail and by a signed webhook: choose which events go where.
      </AdminHeading>
      <Channels channels={settings.channels} />
      {/* Saved settings come back as the boxes' new defaults. */}
      <RoutingForm
        key={settings.routing.map((row) => `${+row.mail}${+row.webhook}`).join("")}
        routing={settings.routing}
      />
      <Deliveries query={query} deliveries={settings.deliveries} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
