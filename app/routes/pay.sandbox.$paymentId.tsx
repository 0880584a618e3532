import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, Link, useLoaderData, useNavigation } from "@remix-run/react";
import { Fragment } from "react";
import { GeneralErrorBoundary } from "~/components/error-screens";
import type { RouteHandle } from "~/root";
import { ApiUnavailableError } from "~/lib/api.server";
import { formatUsd } from "~/lib/money";
import { readSandboxPayment, submitSandboxPayment } from "~/lib/orders.server";
import { redirectWithError, redirectWithInfo, redirectWithSuccess } from "~/lib/toast.server";
import { pageMeta } from "~/components/legal/page-meta";
import { intentOf } from "~/lib/form-action.server";

/*
 * The sandbox gateway's "hosted payment page", for development and demos: Pay and Cancel go through
 * the same signed-webhook path as a real provider. The API answers 404 wherever the sandbox is off.
 */

export const meta: MetaFunction = () => [
  ...pageMeta({
    title: "Sandbox Payment | Store",
    description: "A test payment page for development and demos: pay or cancel an order without moving real money.",
  }),
  { name: "robots", content: "noindex" },
];

// A stand-in for a provider's page: the store's header and footer would suggest it is part of the shop.
export const handle: RouteHandle = { hideChrome: true };

// Its status changes with a click: no cache may answer with the old one.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ params, context }: LoaderFunctionArgs) {
  const result = await readSandboxPayment(context, params.paymentId ?? "");
  if (result.ok) return { payment: result.payload };
  // A malformed id (400) names no payment either.
  if (result.status === 404 || result.status === 400) throw new Response("Payment not found", { status: 404 });
  throw new ApiUnavailableError(`sandbox payment answered ${result.status}: ${result.message}`, result.status);
}

function afterPayment(purpose: "order" | "topup", orderId: string | null): string {
  if (purpose === "topup" || !orderId) return "/balance";
  return `/find-order?${new URLSearchParams({ id: orderId })}`;
}

export async function action({ params, request, context }: ActionFunctionArgs) {
  const intent = intentOf(await request.formData(), ["pay", "cancel"]);
  const result = await submitSandboxPayment(context, params.paymentId ?? "", intent);
  if (!result.ok) {
    if (result.status === 404 || result.status === 400) throw new Response("Payment not found", { status: 404 });
    return redirectWithError(context, `/pay/sandbox/${encodeURIComponent(params.paymentId ?? "")}`, result.message);
  }
  const { purpose, orderId, outcome } = result.payload;
  if (intent === "cancel") {
    if (outcome === "ignored")
      return redirectWithInfo(context, afterPayment(purpose, orderId), "This payment can no longer be cancelled");
    const back = purpose === "topup" ? "/balance" : "/shop?cart=open";
    return redirectWithInfo(context, back, "Payment cancelled. Nothing was charged.");
  }
  if (outcome === "ignored")
    return redirectWithError(context, afterPayment(purpose, orderId), "This payment can no longer be paid");
  return redirectWithSuccess(context, afterPayment(purpose, orderId), "Payment received. Thank you!");
}

/** Pay or cancel: each its own plain form; while either is on its way, both read as disabled. */
function IntentButton({
  intent,
  busy,
  formClass,
  className,
  children,
}: {
  intent: "pay" | "cancel";
  busy: boolean;
  formClass?: string;
  className: string;
  children: string;
}) {
  return (
    <Form method="post" className={formClass}>
      <button type="submit" name="intent" value={intent} aria-disabled={busy} className={className}>
        {children}
      </button>
    </Form>
  );
}

export default function SandboxPaymentPage() {
  const { payment } = useLoaderData<typeof loader>();
  const navigation = useNavigation();
  const pressed = navigation.state === "submitting" ? navigation.formData?.get("intent") : undefined;
  const open = payment.status === "pending";

  return (
    <div className="mx-auto flex min-h-screen max-w-md flex-col justify-center gap-6 px-4 py-10">
      <section className="flex flex-col gap-5 rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
        <p className="rounded-md bg-amber-100 px-3 py-2 text-sm font-semibold text-amber-900">
          Sandbox payment: for development and demos. No real money moves.
        </p>
        <h1 className="text-2xl font-bold">Complete your payment</h1>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-2">
          <dt className="font-semibold text-slate-600">Amount</dt>
          <dd className="text-xl font-bold" data-testid="sandbox-amount">
            {formatUsd(payment.amount)}
          </dd>
          <dt className="font-semibold text-slate-600">For</dt>
          <dd className="break-all">
            {payment.purpose === "topup" ? (
              "Balance top-up"
            ) : (
              <span className="font-mono">Order {payment.orderId}</span>
            )}
          </dd>
          {payment.lines.map((line, index) => (
            <Fragment key={index}>
              <dt className="text-slate-600">
                {line.quantity} × {line.title}
                {line.subtitle && <span className="block text-sm">{line.subtitle}</span>}
              </dt>
              <dd className="text-right" data-testid="sandbox-line">
                {formatUsd(line.price)}
              </dd>
            </Fragment>
          ))}
          {payment.discount > 0 && (
            <>
              <dt className="text-slate-600">Coupon</dt>
              <dd className="text-right">−{formatUsd(payment.discount)}</dd>
            </>
          )}
          <dt className="font-semibold text-slate-600">Status</dt>
          <dd data-testid="sandbox-status">{payment.status}</dd>
        </dl>
        {open ? (
          <div className="flex gap-3">
            <IntentButton
              intent="pay"
              busy={Boolean(pressed)}
              formClass="flex-1"
              className="w-full rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700 aria-disabled:opacity-70"
            >
              {pressed === "pay" ? "Paying…" : `Pay ${formatUsd(payment.amount)}`}
            </IntentButton>
            <IntentButton
              intent="cancel"
              busy={Boolean(pressed)}
              className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-100 aria-disabled:opacity-70"
            >
              {pressed === "cancel" ? "Cancelling…" : "Cancel"}
            </IntentButton>
          </div>
        ) : (
          <p>
            This payment is {payment.status}.{" "}
            <Link
              to={afterPayment(payment.purpose, payment.orderId)}
              className="font-semibold text-brand-700 underline"
            >
              {payment.purpose === "topup" ? "Go to your balance" : "View the order"}
            </Link>
          </p>
        )}
      </section>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
