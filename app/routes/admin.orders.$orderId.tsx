import { type SubmissionResult, getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import {
  type ActionFunctionArgs,
  data,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import type { ReactNode } from "react";
import { z } from "zod";
import { ORDER_STATUS_LABELS } from "../../contract/browser/order";
import { ErrorList, FormErrors, SubmitButton, TextField } from "~/components/account/form-fields";
import { AdminTable, AdminTime, secondaryButtonClass, td, th } from "~/components/admin/admin-ui";
import {
  ORDER_INTENTS,
  type OrderIntent,
  confirmPaymentSchema,
  deliverSchema,
  refundLinesSchema,
} from "~/components/admin/order-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type AdminOrder,
  type OrderCredentials,
  cancelOrder,
  confirmPayment,
  deliverLine,
  readOrder,
  refundOrder,
  resendOrderMail,
  showCredentials,
} from "~/lib/admin-orders.server";
import { replyFromApi } from "~/lib/api-reply.server";
import type { ApiResult } from "~/lib/api.server";
import { formatUsd } from "~/lib/money";
import { redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction<typeof loader> = ({ data: loaded }) => [
  { title: `Order ${loaded?.order._id.slice(0, 8) ?? ""} | Back office` },
];

// The action's answer can carry credentials: never kept by a cache or the back-forward cache.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "ordersRead");
  const order = await readOrder(context, request, params.orderId ?? "");
  return { order, canAct: me.areas.includes("ordersWrite") };
}

type ActionAnswer = {
  intent: OrderIntent;
  /** The line or payment whose form was sent. */
  key: string | null;
  result: SubmissionResult<string[]> | null;
  error: string | null;
  credentials: OrderCredentials | null;
};

function answer(fields: Partial<ActionAnswer> & { intent: OrderIntent }, status: number) {
  return data<ActionAnswer>({ key: null, result: null, error: null, credentials: null, ...fields }, { status });
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const orderId = params.orderId ?? "";
  const formData = await request.formData();
  const parsedIntent = z.enum(ORDER_INTENTS).safeParse(formData.get("intent"));
  if (!parsedIntent.success) throw new Response("Unknown action", { status: 400 });
  const intent = parsedIntent.data;
  await requireStaff(request, context, intent === "credentials" ? "ordersRead" : "ordersWrite");
  const here = `/admin/orders/${encodeURIComponent(orderId)}`;
  const done = (result: ApiResult<unknown>) =>
    result.ok
      ? redirectWithSuccess(context, here, result.message)
      : answer({ intent, error: result.message }, result.status === 404 ? 404 : 400);

  switch (intent) {
    case "credentials": {
      const shown = await showCredentials(context, request, orderId);
      if (!shown.ok) return answer({ intent, error: shown.message }, shown.status === 404 ? 404 : 400);
      return answer({ intent, credentials: shown.payload }, 200);
    }
    case "deliver": {
      const submission = parseWithZod(formData, { schema: deliverSchema });
      const key = String(formData.get("lineId") ?? "");
      if (submission.status !== "success") return answer({ intent, key, result: submission.reply() }, 400);
      const delivered = await deliverLine(context, request, orderId, submission.value);
      if (delivered.ok) return redirectWithSuccess(context, here, delivered.message);
      const { result, status } = replyFromApi(submission, delivered, { fields: ["credentials"] });
      return answer({ intent, key, result }, status);
    }
    case "confirm": {
      const submission = parseWithZod(formData, { schema: confirmPaymentSchema });
      const key = String(formData.get("paymentId") ?? "");
      if (submission.status !== "success") return answer({ intent, key, result: submission.reply() }, 400);
      const confirmed = await confirmPayment(context, request, orderId, submission.value);
      if (confirmed.ok) return redirectWithSuccess(context, here, confirmed.message);
      const { result, status } = replyFromApi(submission, confirmed, { fields: ["reference", "reason"] });
      return answer({ intent, key, result }, status);
    }
    case "refund-lines": {
      const submission = parseWithZod(formData, { schema: refundLinesSchema });
      if (submission.status !== "success") return answer({ intent, result: submission.reply() }, 400);
      const refunded = await refundOrder(context, request, orderId, submission.value);
      if (refunded.ok) return redirectWithSuccess(context, here, refunded.message);
      const { result, status } = replyFromApi(submission, refunded, { fields: ["lineIds"] });
      return answer({ intent, result }, status);
    }
    case "refund-order":
      return done(await refundOrder(context, request, orderId, { wholeOrder: true }));
    case "resend":
      return done(await resendOrderMail(context, request, orderId));
    case "cancel":
      return done(await cancelOrder(context, request, orderId));
  }
}

// ---------------------------------------------------------------- pieces

function Section({ title, children, aside }: { title: string; children: ReactNode; aside?: ReactNode }) {
  const id = `order-${title.toLowerCase().replace(/[^a-z]+/g, "-")}`;
  return (
    <section aria-labelledby={id} className="flex min-w-0 flex-col gap-3">
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <h2 id={id} className="text-lg font-bold">
          {title}
        </h2>
        {aside}
      </div>
      {children}
    </section>
  );
}

function Alert({ children }: { children: ReactNode }) {
  return (
    <p role="alert" className="rounded-md border border-red-300 bg-red-50 p-3 text-sm font-semibold text-red-800">
      {children}
    </p>
  );
}

/** A form with only a submit button, whose refusal is shown next to it. */
function ButtonForm({
  intent,
  label,
  pendingText,
  error,
}: {
  intent: OrderIntent;
  label: string;
  pendingText: string;
  error: string | null;
}) {
  return (
    <Form method="post" className="flex flex-col items-start gap-2">
      {error && <Alert>{error}</Alert>}
      <SubmitButton intent={intent} pendingText={pendingText}>
        {label}
      </SubmitButton>
    </Form>
  );
}

function Summary({ order }: { order: AdminOrder }) {
  const rows: [string, ReactNode][] = [
    ["Status", ORDER_STATUS_LABELS[order.status]],
    ["Placed", <AdminTime key="placed" iso={order.createdAt} />],
    ["Paid", order.paidAt ? <AdminTime key="paid" iso={order.paidAt} /> : "—"],
    ["Email", order.email],
    ["Paid with", order.paymentMethod],
    ["Subtotal", formatUsd(order.subtotal)],
    [
      "Discount",
      order.coupon ? `${formatUsd(order.discount)} (coupon ${order.coupon.code})` : formatUsd(order.discount),
    ],
    ["Total", formatUsd(order.price)],
  ];
  if (order.status === "pending" && order.expiresAt) {
    rows.splice(3, 0, ["Reservation ends", <AdminTime key="expires" iso={order.expiresAt} />]);
  }
  return (
    <dl className="grid grid-cols-1 gap-x-6 gap-y-2 rounded-xl border border-slate-200 bg-white p-4 sm:grid-cols-2">
      {rows.map(([label, value]) => (
        <div key={label} className="flex min-w-0 flex-wrap gap-x-2">
          <dt className="font-semibold">{label}</dt>
          <dd className="min-w-0 break-all" data-testid={label === "Status" ? "admin-order-status" : undefined}>
            {value}
          </dd>
        </div>
      ))}
      <div className="flex min-w-0 flex-wrap gap-x-2 sm:col-span-2">
        <dt className="font-semibold">Customer</dt>
        <dd className="min-w-0 break-all">
          {order.customer ? (
            <>
              <Link to={`/admin/customers/${order.customer._id}`} className="text-brand-700 underline">
                {order.customer.email}
              </Link>{" "}
              (balance {formatUsd(order.customer.balance)}) ·{" "}
              <Link
                to={`/admin/orders?${new URLSearchParams({ customer: order.customer._id })}`}
                className="text-brand-700 underline"
              >
                their orders
              </Link>
            </>
          ) : (
            "No account"
          )}
        </dd>
      </div>
    </dl>
  );
}

function Lines({ order }: { order: AdminOrder }) {
  return (
    <AdminTable label="Order lines">
      <thead>
        <tr>
          <th className={th}>Product</th>
          <th className={th}>Option</th>
          <th className={th}>Warranty</th>
          <th className={th}>Qty</th>
          <th className={`${th} text-right`}>Price</th>
          <th className={th}>Fulfilment</th>
          <th className={th}>Delivered</th>
          <th className={th}>Refunded</th>
        </tr>
      </thead>
      <tbody>
        {order.lines.map((line) => (
          <tr key={line._id}>
            <td className={td}>
              {line.title}
              {line.isReplacement && <span className="block text-xs text-slate-600">replacement</span>}
            </td>
            <td className={td}>{line.option}</td>
            <td className={td}>{line.duration} days</td>
            <td className={td}>{line.quantity}</td>
            <td className={`${td} text-right`}>{formatUsd(line.price)}</td>
            <td className={td}>{line.fulfilMode === "manual" ? "By hand" : "Automatic"}</td>
            <td className={td}>
              {line.delivered} of {line.quantity}
            </td>
            <td className={td}>{line.refundedAt ? formatUsd(line.refunded) : "—"}</td>
          </tr>
        ))}
      </tbody>
    </AdminTable>
  );
}

function DeliverForm({ line, lastResult }: { line: AdminOrder["lines"][number]; lastResult: SubmissionResult | null }) {
  const [form, fields] = useSchemaForm(deliverSchema, {
    id: `deliver-${line._id}`,
    lastResult,
    defaultValue: { lineId: line._id },
  });
  const { key, ...textareaProps } = getTextareaProps(fields.credentials);
  return (
    <Form
      method="post"
      {...getFormProps(form)}
      className="flex flex-col gap-2 rounded-xl border border-amber-300 bg-amber-50 p-4"
    >
      <FormErrors form={form} />
      <input type="hidden" name="lineId" value={line._id} />
      <label htmlFor={fields.credentials.id} className="font-semibold">
        Credentials for {line.title} ({line.toDeliver} needed)
      </label>
      <p id={`${fields.credentials.id}-hint`} className="text-sm text-slate-700">
        One username:password per line, exactly {line.toDeliver}. The customer is mailed and sees them on their order.
      </p>
      <textarea
        key={key}
        {...textareaProps}
        aria-describedby={`${fields.credentials.id}-hint ${fields.credentials.errorId}`}
        rows={Math.min(10, line.toDeliver + 1)}
        placeholder="username:password"
        className="w-full rounded-md border border-slate-300 bg-white px-3 py-2 font-mono aria-[invalid=true]:border-red-600"
      />
      <ErrorList id={fields.credentials.errorId} errors={fields.credentials.errors} />
      <div>
        <SubmitButton intent="deliver" pendingText="Delivering…">
          Deliver
        </SubmitButton>
      </div>
    </Form>
  );
}

function CredentialsPanel({ shown, error }: { shown: OrderCredentials | null; error: string | null }) {
  const count = shown?.reduce((sum, line) => sum + line.credentials.length, 0) ?? 0;
  return (
    <Section title="Delivered credentials">
      {!shown && (
        <>
          <p className="text-sm text-slate-600">Shown on demand; each viewing is recorded in the audit log.</p>
          <ButtonForm intent="credentials" label="Show credentials" pendingText="Loading…" error={error} />
        </>
      )}
      {shown && count === 0 && <p className="text-slate-600">Nothing was delivered on this order.</p>}
      {shown && count > 0 && (
        <div data-testid="admin-credentials" className="flex flex-col gap-3">
          <p className="text-sm text-slate-600">This viewing was recorded in the audit log.</p>
          {shown
            .filter((line) => line.credentials.length > 0)
            .map((line) => (
              <div key={line.lineId} className="rounded-xl border border-slate-200 bg-white p-3">
                <h3 className="font-semibold">
                  {line.title}
                  {line.isReplacement && " (replacement)"}
                  {line.refunded && " (refunded: withdrawn from the customer)"}
                </h3>
                <ul className="mt-2 flex flex-col gap-1">
                  {line.credentials.map((credential) => (
                    <li key={credential.position} className="break-all font-mono text-sm">
                      #{credential.position} {credential.username}:{credential.password}
                      {credential.replacedAt && <span className="font-sans text-slate-600"> (replaced)</span>}
                      {credential.warrantyEnds && (
                        <span className="block font-sans text-xs text-slate-600">
                          warranty until <AdminTime iso={credential.warrantyEnds} />
                        </span>
                      )}
                    </li>
                  ))}
                </ul>
              </div>
            ))}
        </div>
      )}
    </Section>
  );
}

function ConfirmForm({
  payment,
  lastResult,
}: {
  payment: AdminOrder["payments"][number];
  lastResult: SubmissionResult | null;
}) {
  const [form, fields] = useSchemaForm(confirmPaymentSchema, {
    id: `confirm-${payment._id}`,
    lastResult,
    defaultValue: { paymentId: payment._id },
  });
  const { key, ...reasonProps } = getTextareaProps(fields.reason);
  return (
    <details className="rounded-xl border border-slate-200 bg-white p-3" open={lastResult !== null}>
      <summary className="cursor-pointer font-semibold">Confirm this payment by hand</summary>
      <Form method="post" {...getFormProps(form)} className="mt-3 flex flex-col gap-2">
        <p className="text-sm text-slate-600">
          Only when the provider shows the payment as paid and its webhook never came. The order is then delivered as a
          webhook would deliver it.
        </p>
        <FormErrors form={form} />
        <input type="hidden" name="paymentId" value={payment._id} />
        <TextField
          label="Reference at the provider"
          meta={fields.reference}
          type="text"
          autoComplete="off"
          hint={payment.providerReference ? `This payment's is ${payment.providerReference}` : undefined}
        />
        <label htmlFor={fields.reason.id} className="text-sm font-semibold">
          Reason
        </label>
        <textarea
          key={key}
          {...reasonProps}
          rows={2}
          className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
        />
        <ErrorList id={fields.reason.errorId} errors={fields.reason.errors} />
        <div>
          <SubmitButton intent="confirm" pendingText="Confirming…">
            Confirm payment
          </SubmitButton>
        </div>
      </Form>
    </details>
  );
}

/** A cell of a table that stacks on a phone: its column's name (data-label) beside its value. */
const stackedTd =
  `${td} max-sm:flex max-sm:gap-3 max-sm:border-0 max-sm:py-1 ` +
  "max-sm:before:w-28 max-sm:before:shrink-0 max-sm:before:font-semibold max-sm:before:content-[attr(data-label)]";

function Payments({
  order,
  canAct,
  actionAnswer,
}: {
  order: AdminOrder;
  canAct: boolean;
  actionAnswer: ActionAnswer | undefined;
}) {
  if (order.payments.length === 0) {
    return (
      <p className="text-slate-600">
        No payment through a gateway (
        {order.paymentMethod === "key" ? "a redeemed key" : `paid with ${order.paymentMethod}`}).
      </p>
    );
  }
  return (
    <>
      {/* A table on a wide screen; on a phone each payment is a stack of labelled rows, so nothing runs off its frame. */}
      <div
        className="rounded-xl border border-slate-200 bg-white sm:max-w-full sm:overflow-x-auto"
        data-testid="admin-payments"
      >
        <table className="w-full text-left text-sm max-sm:block sm:min-w-[36rem]">
          <caption className="sr-only">Payments</caption>
          <thead className="max-sm:sr-only">
            <tr>
              <th className={th}>Gateway</th>
              <th className={th}>Status</th>
              <th className={`${th} text-right`}>Amount</th>
              <th className={th}>Reference</th>
              <th className={th}>Opened</th>
              <th className={th}>Webhook events</th>
            </tr>
          </thead>
          <tbody className="max-sm:block">
            {order.payments.map((payment) => (
              <tr key={payment._id} className="max-sm:block max-sm:border-b max-sm:border-slate-100 max-sm:py-2">
                <td className={stackedTd} data-label="Gateway">
                  {payment.gateway}
                </td>
                <td className={stackedTd} data-label="Status" data-testid="admin-payment-status">
                  <span className="min-w-0">
                    {payment.status}
                    {payment.confirmedBy && (
                      <span className="block text-xs break-words text-slate-600">
                        confirmed by hand by {payment.confirmedBy}: {payment.confirmationReason}
                      </span>
                    )}
                  </span>
                </td>
                <td className={`${stackedTd} sm:text-right`} data-label="Amount">
                  {formatUsd(payment.amount)}
                </td>
                <td className={`${stackedTd} font-mono text-xs`} data-label="Reference">
                  <span className="min-w-0 break-all">{payment.providerReference ?? "—"}</span>
                </td>
                <td className={stackedTd} data-label="Opened">
                  <AdminTime iso={payment.createdAt} />
                </td>
                <td className={stackedTd} data-label="Webhook events">
                  {payment.events.length === 0 ? (
                    "none"
                  ) : (
                    <ul data-testid="admin-payment-events" className="min-w-0">
                      {payment.events.map((event) => (
                        <li key={event.eventId} className="break-all text-xs">
                          <AdminTime iso={event.receivedAt} /> <code>{event.eventId}</code>
                        </li>
                      ))}
                    </ul>
                  )}
                </td>
              </tr>
            ))}
          </tbody>
        </table>
      </div>
      {canAct &&
        order.payments
          .filter((payment) => payment.confirmable)
          .map((payment) => (
            <ConfirmForm
              key={payment._id}
              payment={payment}
              lastResult={
                actionAnswer?.intent === "confirm" && actionAnswer.key === payment._id ? actionAnswer.result : null
              }
            />
          ))}
    </>
  );
}

function RefundForms({ order, actionAnswer }: { order: AdminOrder; actionAnswer: ActionAnswer | undefined }) {
  const [form, fields] = useSchemaForm(refundLinesSchema, {
    id: "refund-lines",
    lastResult: actionAnswer?.intent === "refund-lines" ? actionAnswer.result : null,
  });
  const refundable = order.lines.filter((line) => line.refundable > 0);
  const total = refundable.reduce((sum, line) => sum + line.refundable, 0);
  return (
    <details
      className="rounded-xl border border-slate-200 bg-white p-3"
      open={actionAnswer?.intent.startsWith("refund")}
    >
      <summary className="cursor-pointer font-semibold">Refund to the customer&apos;s balance</summary>
      <div className="mt-3 flex flex-col gap-4">
        <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
          <FormErrors form={form} />
          <fieldset className="flex flex-col gap-1" aria-describedby={fields.lineIds.errorId}>
            <legend className="text-sm font-semibold">Lines to refund</legend>
            {refundable.map((line) => (
              <label key={line._id} className="flex items-center gap-2">
                <input type="checkbox" name={fields.lineIds.name} value={line._id} className="size-4" />
                {line.quantity} × {line.title} ({formatUsd(line.refundable)})
              </label>
            ))}
          </fieldset>
          <ErrorList id={fields.lineIds.errorId} errors={fields.lineIds.errors} />
          <div>
            <SubmitButton intent="refund-lines" pendingText="Refunding…">
              Refund selected lines
            </SubmitButton>
          </div>
        </Form>
        <ButtonForm
          intent="refund-order"
          label={`Refund the whole order (${formatUsd(total)})`}
          pendingText="Refunding…"
          error={actionAnswer?.intent === "refund-order" ? actionAnswer.error : null}
        />
        <p className="text-sm text-slate-600">
          A refunded line&apos;s credentials are withdrawn from the customer&apos;s order page.
        </p>
      </div>
    </details>
  );
}

function Ledger({ order }: { order: AdminOrder }) {
  if (order.ledger.length === 0) return <p className="text-slate-600">No balance entries.</p>;
  return (
    <AdminTable label="Balance entries">
      <thead>
        <tr>
          <th className={th}>When</th>
          <th className={th}>Type</th>
          <th className={`${th} text-right`}>Amount</th>
          <th className={`${th} text-right`}>Balance after</th>
          <th className={th}>Note</th>
          <th className={th}>By</th>
        </tr>
      </thead>
      <tbody>
        {order.ledger.map((entry) => (
          <tr key={entry._id}>
            <td className={td}>
              <AdminTime iso={entry.createdAt} />
            </td>
            <td className={td}>{entry.type}</td>
            <td className={`${td} text-right`}>{formatUsd(entry.amount)}</td>
            <td className={`${td} text-right`}>{formatUsd(entry.balanceAfter)}</td>
            <td className={td}>{entry.note}</td>
            <td className={`${td} break-all`}>{entry.staff ?? "—"}</td>
          </tr>
        ))}
      </tbody>
    </AdminTable>
  );
}

function Mails({ order }: { order: AdminOrder }) {
  if (order.mails.length === 0) return <p className="text-slate-600">No mail about this order.</p>;
  return (
    <AdminTable label="Mails about this order">
      <thead>
        <tr>
          <th className={th}>Queued</th>
          <th className={th}>To</th>
          <th className={th}>Subject</th>
          <th className={th}>Status</th>
        </tr>
      </thead>
      <tbody>
        {order.mails.map((mail) => (
          <tr key={mail._id}>
            <td className={td}>
              <AdminTime iso={mail.createdAt} />
            </td>
            <td className={`${td} break-all`}>{mail.to}</td>
            <td className={td}>{mail.subject}</td>
            <td className={td}>
              {mail.status}
              {mail.status !== "sent" && mail.attempts > 0 && ` (${mail.attempts} attempts)`}
            </td>
          </tr>
        ))}
      </tbody>
    </AdminTable>
  );
}

/**
 * The refusal of a form the page no longer shows (the line was delivered meanwhile, the order is no
 * longer pending, ...): a second click or a second staff member lands here and reads why.
 */
function strayRefusal(order: AdminOrder, canAct: boolean, answer: ActionAnswer | undefined): string[] {
  if (!answer || answer.intent === "credentials") return [];
  const shown = {
    deliver: canAct && order.lines.some((line) => line.toDeliver > 0 && line._id === answer.key),
    confirm: canAct && order.payments.some((payment) => payment.confirmable && payment._id === answer.key),
    "refund-lines": canAct && order.can.refund,
    "refund-order": canAct && order.can.refund,
    resend: canAct && order.can.resendMail,
    cancel: canAct && order.can.cancel,
  }[answer.intent];
  if (shown) return [];
  if (answer.error) return [answer.error];
  return Object.values(answer.result?.error ?? {}).flatMap((messages) => messages ?? []);
}

// ---------------------------------------------------------------- page

export default function AdminOrderPage() {
  const { order, canAct } = useLoaderData<typeof loader>();
  const actionAnswer = useActionData<typeof action>() as ActionAnswer | undefined;
  const errorFor = (intent: OrderIntent) => (actionAnswer?.intent === intent ? actionAnswer.error : null);
  const toDeliver = order.lines.filter((line) => line.toDeliver > 0);
  const stray = strayRefusal(order, canAct, actionAnswer);
  return (
    <div className="flex flex-col gap-8">
      <header className="flex flex-col gap-1">
        <Link to="/admin/orders" className="self-start text-sm font-semibold text-brand-700 underline">
          All orders
        </Link>
        <h1 className="break-all text-2xl font-bold">Order {order._id}</h1>
      </header>
      {stray.length > 0 && <Alert>{stray.join(" ")}</Alert>}

      <Summary order={order} />

      {order.message && (
        <section aria-labelledby="order-message" className="rounded-xl border border-brand-500/40 bg-brand-50 p-4">
          <h2 id="order-message" className="font-bold">
            The customer&apos;s message
          </h2>
          <p className="whitespace-pre-line break-words">{order.message}</p>
        </section>
      )}

      <Section title="Lines">
        <Lines order={order} />
        {canAct &&
          toDeliver.map((line) => (
            <DeliverForm
              key={line._id}
              line={line}
              lastResult={
                actionAnswer?.intent === "deliver" && actionAnswer.key === line._id ? actionAnswer.result : null
              }
            />
          ))}
      </Section>

      <CredentialsPanel
        shown={actionAnswer?.intent === "credentials" ? actionAnswer.credentials : null}
        error={errorFor("credentials")}
      />

      <Section title="Payments">
        <Payments order={order} canAct={canAct} actionAnswer={actionAnswer} />
      </Section>

      <Section title="Balance">
        <Ledger order={order} />
        {canAct && order.can.refund && <RefundForms order={order} actionAnswer={actionAnswer} />}
        {order.can.refundReason && order.status !== "pending" && (
          <p className="text-sm text-slate-600">{order.can.refundReason}</p>
        )}
      </Section>

      <Section title="Mails">
        <Mails order={order} />
        {canAct && order.can.resendMail && (
          <ButtonForm intent="resend" label="Resend the order mail" pendingText="Sending…" error={errorFor("resend")} />
        )}
      </Section>

      {canAct && order.can.cancel && (
        <Section title="Cancel">
          <details className="rounded-xl border border-slate-200 bg-white p-3" open={errorFor("cancel") !== null}>
            <summary className="cursor-pointer font-semibold">Cancel this unpaid order</summary>
            <div className="mt-3 flex flex-col gap-2">
              <p className="text-sm text-slate-600">Its reserved stock goes back on sale at once.</p>
              <ButtonForm intent="cancel" label="Cancel order" pendingText="Cancelling…" error={errorFor("cancel")} />
            </div>
          </details>
        </Section>
      )}
      <p>
        <Link to="/admin/orders" className={secondaryButtonClass}>
          Back to orders
        </Link>
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
