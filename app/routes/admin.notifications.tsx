import { getFormProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, useActionData, useLoaderData } from "@remix-run/react";
import { NOTIFICATION_DELIVERY_STATUSES } from "../../contract/notifications";
import {
  AdminHeading,
  AdminTable,
  AdminTime,
  Pager,
  inputClass,
  pageFrom,
  pageHref,
  secondaryButtonClass,
  td,
  th,
} from "~/components/admin/admin-ui";
import { notificationRetrySchema, notificationRoutingSchema } from "~/components/admin/notification-schemas";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type DeliveryStatusFilter,
  type NotificationDelivery,
  readNotificationSettings,
  retryNotification,
  saveNotificationRouting,
} from "~/lib/admin-notifications.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction = () => [{ title: "Notifications | Back office" }];

const STATUS_LABELS: Record<NotificationDelivery["status"], string> = {
  pending: "Pending",
  sent: "Sent",
  failed: "Failed",
};

function statusFrom(url: URL): DeliveryStatusFilter {
  const status = url.searchParams.get("status") ?? "";
  return (NOTIFICATION_DELIVERY_STATUSES as readonly string[]).includes(status) ? (status as DeliveryStatusFilter) : "";
}

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "notifications");
  const url = new URL(request.url);
  const status = statusFrom(url);
  return { status, settings: await readNotificationSettings(context, request, { page: pageFrom(url), status }) };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "notifications");
  const here = `/admin/notifications${new URL(request.url).search}`;
  const formData = await request.formData();
  if (formData.get("intent") === "retry") {
    const submission = parseWithZod(formData, { schema: notificationRetrySchema });
    if (submission.status !== "success") return redirectWithError(context, here, "Notification not found");
    const answer = await retryNotification(context, request, submission.value.notificationId);
    if (!answer.ok) return redirectWithError(context, here, answer.message);
    return redirectWithSuccess(context, here, answer.message);
  }
  const submission = parseWithZod(formData, { schema: notificationRoutingSchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await saveNotificationRouting(context, request, submission.value);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["mail", "webhook"] });
    return data({ result }, { status });
  }
  return redirectWithSuccess(context, here, answer.message);
}

type Settings = Awaited<ReturnType<typeof loader>>["settings"];

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
  const [form, fields] = useSchemaForm(notificationRoutingSchema, {
    id: "notification-routing",
    lastResult: useActionData<typeof action>()?.result,
  });
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

function Deliveries({ status, deliveries }: { status: DeliveryStatusFilter; deliveries: Settings["deliveries"] }) {
  return (
    <section aria-labelledby="deliveries-title" className="flex flex-col gap-3">
      <h2 id="deliveries-title" className="text-lg font-bold">
        Webhook deliveries
      </h2>
      <Form method="get" className="flex flex-wrap items-end gap-3">
        <div className="flex flex-col gap-1">
          <label htmlFor="delivery-status" className="text-sm font-semibold">
            State
          </label>
          <select id="delivery-status" name="status" defaultValue={status} className={inputClass}>
            <option value="">All</option>
            {NOTIFICATION_DELIVERY_STATUSES.map((value) => (
              <option key={value} value={value}>
                {STATUS_LABELS[value]}
              </option>
            ))}
          </select>
        </div>
        <button type="submit" className={secondaryButtonClass}>
          Show
        </button>
      </Form>
      {deliveries.records.length === 0 ? (
        <p className="text-slate-600">
          {status ? "No webhook notification is in this state." : "No notification was sent to the webhook yet."}
        </p>
      ) : (
        <AdminTable label="Webhook deliveries, newest first">
          <thead>
            <tr>
              <th className={th}>Created</th>
              <th className={th}>Event</th>
              <th className={th}>State</th>
              <th className={th}>Attempts</th>
              <th className={th}>Last error</th>
              <th className={th}>Sent or next attempt</th>
            </tr>
          </thead>
          <tbody>
            {deliveries.records.map((delivery) => (
              <tr key={delivery._id}>
                <td className={td}>
                  <AdminTime iso={delivery.createdAt} />
                </td>
                <td className={td}>
                  <code>{delivery.event}</code>
                </td>
                <td className={td}>{STATUS_LABELS[delivery.status]}</td>
                <td className={td}>{delivery.attempts}</td>
                <td className={`${td} break-words`}>{delivery.lastError ?? "—"}</td>
                <td className={td}>
                  {delivery.status === "failed" ? (
                    <Form method="post" preventScrollReset>
                      <input type="hidden" name="notificationId" value={delivery._id} />
                      <button type="submit" name="intent" value="retry" className={secondaryButtonClass}>
                        Retry now
                      </button>
                    </Form>
                  ) : (
                    <AdminTime iso={delivery.sentAt ?? delivery.nextAttemptAt} />
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </AdminTable>
      )}
      <Pager
        label="Webhook delivery pages"
        pager={deliveries.pager}
        href={(page) => pageHref("/admin/notifications", { status }, page)}
      />
    </section>
  );
}

export default function NotificationsPage() {
  const { status, settings } = useLoaderData<typeof loader>();
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
      <Deliveries status={status} deliveries={settings.deliveries} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
