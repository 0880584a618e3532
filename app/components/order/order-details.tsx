import { ORDER_STATUS_LABELS } from "../../../contract/browser/order";
import { formatUsd } from "~/lib/money";
import type { Order } from "~/lib/orders.server";
import { canRate } from "~/lib/feedback-rules";
import type { FeedbackAccess } from "~/lib/feedback-rules";
import { OrderFeedback } from "./order-feedback";
import { OrderProductCard } from "./order-product-card";
import { OrderRequestDialog } from "./request-dialog";
import { lineRequestProps } from "./request-panels";
import type { OrderPanel, OrderRequestsData } from "~/lib/order-requests.server";

const PAYMENT_LABELS: Record<string, string> = {
  coinbase: "Crypto",
  shoppy: "Paypal",
  stripe: "Credit/Debit Card",
  balance: "Balance",
  sandbox: "Sandbox",
  key: "Redeemed key",
};

function OrderSummary({ order }: { order: Order }) {
  return (
    <dl className="grid grid-cols-2 gap-x-6 gap-y-2 rounded-xl border border-slate-200 bg-white p-5 text-sm sm:grid-cols-4">
      <div className="col-span-2 sm:col-span-4">
        <dt className="font-semibold text-slate-600">Order</dt>
        <dd className="break-all font-mono" data-testid="order-id">
          {order._id}
        </dd>
      </div>
      <div>
        <dt className="font-semibold text-slate-600">Status</dt>
        <dd data-testid="order-status">{ORDER_STATUS_LABELS[order.status]}</dd>
      </div>
      <div>
        <dt className="font-semibold text-slate-600">Placed</dt>
        <dd>
          <time dateTime={order.createdAt}>{new Date(order.createdAt).toUTCString().slice(5, 22)} UTC</time>
        </dd>
      </div>
      <div>
        <dt className="font-semibold text-slate-600">Total</dt>
        <dd>{formatUsd(order.price)}</dd>
      </div>
      <div>
        <dt className="font-semibold text-slate-600">Paid with</dt>
        <dd>{PAYMENT_LABELS[order.paymentMethod] ?? order.paymentMethod}</dd>
      </div>
    </dl>
  );
}

type Props = {
  order: Order;
  requests: OrderRequestsData | null;
  panel: OrderPanel | null;
  feedback: FeedbackAccess | null;
  checkAgainHref: string;
  /** Without JavaScript the page reloads itself while the order is pending, until it gives up. */
  refreshesByItself: boolean;
};

/**
 * A found order: its summary, each line with its credentials, feedback and request buttons, and the open
 * request panel. /find-order loads this module only once it has an order to show (ADR 032).
 */
export default function OrderDetails({ order, requests, panel, feedback, checkAgainHref, refreshesByItself }: Props) {
  return (
    <>
      <OrderSummary order={order} />
      {order.status === "pending" && (
        <p className="text-sm text-slate-600" data-testid="pending-note">
          {refreshesByItself
            ? "Paid already? It can take a few minutes to confirm; this page checks again by itself."
            : "Paid already? It can take a few minutes to confirm. This page has stopped checking by itself."}{" "}
          <a href={checkAgainHref} className="font-semibold text-brand-700 underline">
            Check again
          </a>
        </p>
      )}
      <div className="flex flex-col gap-4">
        {order.products.map((product, index) => (
          <OrderProductCard
            key={`${product.productOption}-${index}`}
            order={order}
            product={product}
            {...(requests && lineRequestProps(order, product, requests))}
          >
            {feedback && canRate(order, product) && (
              <OrderFeedback orderId={order._id} product={product} access={feedback} />
            )}
          </OrderProductCard>
        ))}
      </div>
      {panel && requests && <OrderRequestDialog order={order} panel={panel} requests={requests} />}
    </>
  );
}
