import { Link } from "@remix-run/react";
import { isPaidOrderStatus } from "../../../contract/browser/order";
import type { OrderPanel, OrderRequestsData } from "~/lib/order-requests.server";
import type { Order } from "~/lib/orders.server";
import type { OrderRequest } from "~/lib/requests.server";

/* What the order's request controls (request-panels.tsx) and its request dialog (request-dialog.tsx) share. */

export const LINK = "font-semibold text-brand-700 underline";
const dateFormat = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });
export const shownDate = (iso: string) => <time dateTime={iso}>{dateFormat.format(new Date(iso))}</time>;

export function orderHref(orderId: string, panel?: { show: OrderPanel["show"]; line: string; index?: number }) {
  const search = new URLSearchParams({ id: orderId });
  if (panel) {
    search.set("show", panel.show);
    search.set("line", panel.line);
    if (panel.index !== undefined) search.set("index", String(panel.index));
  }
  return `/find-order?${search}`;
}

export const delivered = (order: Order) => isPaidOrderStatus(order.status);

const STATUS_TEXT: Record<OrderRequest["status"], string> = {
  pending: "Waiting",
  completed: "Completed",
  rejected: "Rejected",
};

export function StatusBadge({ status, answered }: { status: OrderRequest["status"]; answered?: boolean }) {
  const tone =
    status === "pending"
      ? "bg-amber-100 text-amber-900"
      : status === "completed"
        ? "bg-green-100 text-green-800"
        : "bg-red-100 text-red-800";
  return (
    <span className={`rounded-full px-2 py-0.5 text-xs font-semibold ${tone}`}>
      {answered && status === "completed" ? "Answered" : STATUS_TEXT[status]}
    </span>
  );
}

/** Why this visitor cannot ask for a replacement here, and what to do about it. */
export function AccessNote({ order, requests }: { order: Order; requests: OrderRequestsData }) {
  if (requests.viewer === "other") {
    return <p className="text-sm text-slate-600">{requests.refusal}</p>;
  }
  const back = orderHref(order._id);
  return (
    <p className="text-sm text-slate-600" data-testid="sign-in-to-replace">
      <Link to={`/login?${new URLSearchParams({ redirectTo: back })}`} className={LINK}>
        Sign in
      </Link>{" "}
      with the account that placed this order to request a replacement or ask about it. Checked out as a guest? Your
      account uses your email address:{" "}
      <Link to="/forgot" className={LINK}>
        set its password
      </Link>{" "}
      first.
    </p>
  );
}

/** The answers to the line's other requests, so they are seen without opening anything. */
export function OtherRequests({ requests }: { requests: OrderRequest[] }) {
  if (requests.length === 0) return null;
  return (
    <ul className="flex flex-col gap-2" aria-label="Your questions">
      {requests.map((request) => (
        <li key={request._id} className="rounded-lg border border-slate-200 p-3 text-sm">
          <p className="flex flex-wrap items-center gap-2">
            <StatusBadge status={request.status} answered />{" "}
            <span className="text-slate-600">{shownDate(request.createdAt)}</span>
          </p>
          <p className="mt-1 whitespace-pre-wrap break-words">{request.message}</p>
          {(request.answer ?? request.reason) && (
            <p className="mt-1 whitespace-pre-wrap break-words rounded-md bg-slate-100 p-2">
              <span className="font-semibold">Admin: </span>
              {request.answer ?? request.reason}
            </p>
          )}
        </li>
      ))}
    </ul>
  );
}
