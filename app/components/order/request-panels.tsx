import { Link } from "@remix-run/react";
import type { OrderRequestsData } from "~/lib/order-requests.server";
import type { Order, OrderProduct } from "~/lib/orders.server";
import { AccessNote, delivered, LINK, orderHref, OtherRequests, shownDate } from "./request-parts";

/*
 * Warranty replacements and other requests on /find-order (ADR 020): the Replace control of each
 * credential and each line's request links and answers. The panels they open are request-dialog.tsx.
 * Every panel is a link and every form a plain post, so all of it works without JavaScript.
 */

const warrantyEnded = (expiry: string | null) => !expiry || new Date(expiry).getTime() <= Date.now();

/** Under one credential: Replace, or why not (a request already waits, the warranty ended). */
function ReplaceControl({
  order,
  product,
  index,
  requests,
}: {
  order: Order;
  product: OrderProduct;
  index: number;
  requests: OrderRequestsData;
}) {
  if (requests.viewer !== "owner") return null;
  const history = requests.histories[product.productOption] ?? [];
  const waiting = history.some(
    (request) => request.kind === "replacement" && request.index === index && request.status === "pending",
  );
  if (waiting) {
    return (
      <p className="text-sm text-amber-900" data-testid="replacement-waiting">
        Replacement requested: we deliver it here as soon as it is ready.{" "}
        <Link
          to={orderHref(order._id, { show: "history", line: product.productOption })}
          preventScrollReset
          className={LINK}
        >
          History
        </Link>
      </p>
    );
  }
  if (warrantyEnded(product.expiry)) {
    return (
      <p className="text-sm text-slate-600">
        Warranty ended{product.expiry ? <> on {shownDate(product.expiry)}</> : null}: it can no longer be replaced.
      </p>
    );
  }
  return (
    <Link
      to={orderHref(order._id, { show: "replace", line: product.productOption, index })}
      preventScrollReset
      className="self-start rounded-md border border-slate-300 px-3 py-1.5 text-sm font-semibold hover:bg-slate-100"
    >
      Replace
    </Link>
  );
}

/** The links and answers a line shows below its credentials. */
function LineActions({
  order,
  product,
  requests,
}: {
  order: Order;
  product: OrderProduct;
  requests: OrderRequestsData;
}) {
  const line = product.productOption;
  const history = requests.histories[line] ?? [];
  const hasCredentials = delivered(order) && product.fullFillmode === "auto";
  return (
    <div className="flex flex-col gap-3">
      <nav aria-label={`Requests about ${product.title}`} className="flex flex-wrap gap-x-4 gap-y-2 text-sm">
        <Link to={orderHref(order._id, { show: "info", line })} preventScrollReset className={LINK}>
          Information
        </Link>
        {requests.viewer === "owner" && hasCredentials && (
          <Link to={orderHref(order._id, { show: "history", line })} preventScrollReset className={LINK}>
            Replacement history
          </Link>
        )}
        {requests.viewer === "owner" && (
          <Link to={orderHref(order._id, { show: "ask", line })} preventScrollReset className={LINK}>
            Ask a question
          </Link>
        )}
      </nav>
      {requests.viewer !== "owner" && hasCredentials && <AccessNote order={order} requests={requests} />}
      {!product.isReplacement && <OtherRequests requests={history.filter((request) => request.kind === "other")} />}
    </div>
  );
}

/** What the order page passes each product card: a control per credential and the line's actions. */
export function lineRequestProps(order: Order, product: OrderProduct, requests: OrderRequestsData) {
  return {
    credentialExtra: (index: number) => (
      <ReplaceControl order={order} product={product} index={index} requests={requests} />
    ),
    actions: <LineActions order={order} product={product} requests={requests} />,
  };
}
