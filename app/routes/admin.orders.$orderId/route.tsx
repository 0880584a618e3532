import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { secondaryButtonClass } from "~/components/admin/admin-ui";
import { Alert, ButtonForm, PageSection } from "~/components/admin/detail-ui";
import { OrderSummary, OrderTable, PaymentsTable } from "./order-facts";
import { ConfirmForm, CredentialsPanel, DeliverForm, RefundForms } from "./order-forms";
import { ORDER_INTENTS, confirmPaymentSchema, deliverSchema, refundLinesSchema } from "./order-schemas";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import {
  type AdminOrder,
  cancelOrder,
  confirmPayment,
  deliverLine,
  readOrder,
  refundOrder,
  resendOrderMail,
  showCredentials,
} from "./order.server";
import type { ApiFailure } from "~/lib/api.server";
import { formAction, intentOf, replyToForm } from "~/lib/form-action.server";
import { useFormReply } from "~/lib/form-reply";
import { redirectWithSuccess } from "~/lib/toast.server";

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

/** The forms that are only a button, and what each asks of the API. */
const COMMANDS = { "refund-order": refundWholeOrder, resend: resendOrderMail, cancel: cancelOrder };
function refundWholeOrder(...[context, request, orderId]: Parameters<typeof resendOrderMail>) {
  return refundOrder(context, request, orderId, { wholeOrder: true });
}

/** A button form's refusal, beside its button: a form error, and a 404 stays a 404. */
const refuseCommand = (form: string, failure: ApiFailure) =>
  replyToForm(form, { status: "error", error: { "": [failure.message] } }, failure.status === 404 ? 404 : 400);

export async function action({ request, context, params }: ActionFunctionArgs) {
  const orderId = params.orderId ?? "";
  const formData = await request.formData();
  const intent = intentOf(formData, ORDER_INTENTS);
  await requireStaff(request, context, intent === "credentials" ? "ordersRead" : "ordersWrite");
  const backHere = (answer: { message: string }) =>
    redirectWithSuccess(context, `/admin/orders/${encodeURIComponent(orderId)}`, answer.message);
  switch (intent) {
    case "credentials": {
      const shown = await showCredentials(context, request, orderId);
      return shown.ok ? replyToForm(intent, {}, 200, () => shown.payload) : refuseCommand(intent, shown);
    }
    // Each line and payment has its own form: the reply names the one that was sent.
    case "deliver":
      return formAction(formData, {
        form: `deliver-${formData.get("lineId")}`,
        schema: deliverSchema,
        fields: ["credentials"],
        call: (value) => deliverLine(context, request, orderId, value),
        done: backHere,
      });
    case "confirm":
      return formAction(formData, {
        form: `confirm-${formData.get("paymentId")}`,
        schema: confirmPaymentSchema,
        fields: ["reference", "reason"],
        call: (value) => confirmPayment(context, request, orderId, value),
        done: backHere,
      });
    case "refund-lines":
      return formAction(formData, {
        form: intent,
        schema: refundLinesSchema,
        call: (value) => refundOrder(context, request, orderId, value),
        done: backHere,
      });
    default: {
      const answer = await COMMANDS[intent](context, request, orderId);
      return answer.ok ? backHere(answer) : refuseCommand(intent, answer);
    }
  }
}

/** The forms the page shows now: a refusal of another (a line delivered meanwhile) is shown at the top. */
function formsShown(order: AdminOrder, canAct: boolean): string[] {
  if (!canAct) return ["credentials"];
  return [
    "credentials",
    ...order.lines.filter((line) => line.toDeliver > 0).map((line) => `deliver-${line._id}`),
    ...order.payments.filter((payment) => payment.confirmable).map((payment) => `confirm-${payment._id}`),
    ...(order.can.refund ? ["refund-lines", "refund-order"] : []),
    ...(order.can.resendMail ? ["resend"] : []),
    ...(order.can.cancel ? ["cancel"] : []),
  ];
}

export default function AdminOrderPage() {
  const { order, canAct } = useLoaderData<typeof loader>();
  const reply = useFormReply();
  // A second click or a second staff member lands here after the form went away, and reads why.
  const stray =
    reply && !formsShown(order, canAct).includes(reply.form)
      ? Object.values(reply.result.error ?? {}).flatMap((messages) => messages ?? [])
      : [];
  return (
    <div className="flex flex-col gap-8">
      <header className="flex flex-col gap-1">
        <Link to="/admin/orders" className="self-start text-sm font-semibold text-brand-700 underline">
          All orders
        </Link>
        <h1 className="break-all text-2xl font-bold">Order {order._id}</h1>
      </header>
      {stray.length > 0 && <Alert>{stray.join(" ")}</Alert>}
      <OrderSummary order={order} />
      {order.message && (
        <section aria-labelledby="order-message" className="rounded-xl border border-brand-500/40 bg-brand-50 p-4">
          <h2 id="order-message" className="font-bold">
            The customer&apos;s message
          </h2>
          <p className="whitespace-pre-line break-words">{order.message}</p>
        </section>
      )}
      <PageSection title="Lines" gap="gap-3">
        <OrderTable order={order} part="lines" />
        {canAct &&
          order.lines.filter((line) => line.toDeliver > 0).map((line) => <DeliverForm key={line._id} line={line} />)}
      </PageSection>
      <CredentialsPanel />
      <PageSection title="Payments" gap="gap-3">
        <PaymentsTable order={order} />
        {canAct &&
          order.payments
            .filter((payment) => payment.confirmable)
            .map((payment) => <ConfirmForm key={payment._id} payment={payment} />)}
      </PageSection>
      <PageSection title="Balance" gap="gap-3">
        <OrderTable order={order} part="ledger" />
        {canAct && order.can.refund && <RefundForms order={order} />}
        {order.can.refundReason && order.status !== "pending" && (
          <p className="text-sm text-slate-600">{order.can.refundReason}</p>
        )}
      </PageSection>
      <PageSection title="Mails" gap="gap-3">
        <OrderTable order={order} part="mails" />
        {canAct && order.can.resendMail && (
          <ButtonForm intent="resend" label="Resend the order mail" pendingText="Sending…" />
        )}
      </PageSection>
      {canAct && order.can.cancel && (
        <PageSection title="Cancel" gap="gap-3">
          <details className="rounded-xl border border-slate-200 bg-white p-3" open={reply?.form === "cancel"}>
            <summary className="cursor-pointer font-semibold">Cancel this unpaid order</summary>
            <div className="mt-3 flex flex-col gap-2">
              <p className="text-sm text-slate-600">Its reserved stock goes back on sale at once.</p>
              <ButtonForm intent="cancel" label="Cancel order" pendingText="Cancelling…" />
            </div>
          </details>
        </PageSection>
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
