import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { ORDER_STATUS_LABELS } from "../../../contract/browser/order";
import { AdminTime } from "~/components/admin/admin-ui";
import { type Column, RecordTable, byId } from "~/components/admin/detail-ui";
import type { AdminOrder } from "./order.server";
import { formatUsd } from "~/lib/money";

/* What a back-office order page shows of the order: its summary, lines, payments, balance entries and mails. */

export function OrderSummary({ order }: { order: AdminOrder }) {
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

const LINE_COLUMNS: Column<AdminOrder["lines"][number]>[] = [
  {
    header: "Product",
    cell: (line) => (
      <>
        {line.title}
        {line.isReplacement && <span className="block text-xs text-slate-600">replacement</span>}
      </>
    ),
  },
  { header: "Option", cell: (line) => line.option },
  { header: "Warranty", cell: (line) => `${line.duration} days` },
  { header: "Qty", cell: (line) => line.quantity },
  { header: "Price", numeric: true, cell: (line) => formatUsd(line.price) },
  { header: "Fulfilment", cell: (line) => (line.fulfilMode === "manual" ? "By hand" : "Automatic") },
  { header: "Delivered", cell: (line) => `${line.delivered} of ${line.quantity}` },
  { header: "Refunded", cell: (line) => (line.refundedAt ? formatUsd(line.refunded) : "—") },
];

const LEDGER_COLUMNS: Column<AdminOrder["ledger"][number]>[] = [
  { header: "When", cell: (entry) => <AdminTime iso={entry.createdAt} /> },
  { header: "Type", cell: (entry) => entry.type },
  { header: "Amount", numeric: true, cell: (entry) => formatUsd(entry.amount) },
  { header: "Balance after", numeric: true, cell: (entry) => formatUsd(entry.balanceAfter) },
  { header: "Note", cell: (entry) => entry.note },
  { header: "By", className: "break-all", cell: (entry) => entry.staff ?? "—" },
];

const MAIL_COLUMNS: Column<AdminOrder["mails"][number]>[] = [
  { header: "Queued", cell: (mail) => <AdminTime iso={mail.createdAt} /> },
  { header: "To", className: "break-all", cell: (mail) => mail.to },
  { header: "Subject", cell: (mail) => mail.subject },
  {
    header: "Status",
    cell: (mail) =>
      `${mail.status}${mail.status !== "sent" && mail.attempts > 0 ? ` (${mail.attempts} attempts)` : ""}`,
  },
];

const ORDER_TABLES = {
  lines: { label: "Order lines", empty: "No lines.", columns: LINE_COLUMNS },
  ledger: { label: "Balance entries", empty: "No balance entries.", columns: LEDGER_COLUMNS },
  mails: { label: "Mails about this order", empty: "No mail about this order.", columns: MAIL_COLUMNS },
};

export function OrderTable({ order, part }: { order: AdminOrder; part: keyof typeof ORDER_TABLES }) {
  const { label, empty, columns } = ORDER_TABLES[part];
  return (
    <RecordTable
      label={label}
      columns={columns as Column<{ _id: string }>[]}
      rows={order[part]}
      rowKey={byId}
      empty={empty}
    />
  );
}

type Payment = AdminOrder["payments"][number];

const PAYMENT_COLUMNS: Column<Payment>[] = [
  { header: "Gateway", cell: (payment) => payment.gateway },
  {
    header: "Status",
    testId: "admin-payment-status",
    cell: (payment) => (
      <span className="min-w-0">
        {payment.status}
        {payment.confirmedBy && (
          <span className="block text-xs break-words text-slate-600">
            confirmed by hand by {payment.confirmedBy}: {payment.confirmationReason}
          </span>
        )}
      </span>
    ),
  },
  { header: "Amount", numeric: true, cell: (payment) => formatUsd(payment.amount) },
  {
    header: "Reference",
    className: "font-mono text-xs",
    cell: (payment) => <span className="min-w-0 break-all">{payment.providerReference ?? "—"}</span>,
  },
  { header: "Opened", cell: (payment) => <AdminTime iso={payment.createdAt} /> },
  {
    header: "Webhook events",
    cell: (payment) =>
      payment.events.length === 0 ? (
        "none"
      ) : (
        <ul data-testid="admin-payment-events" className="min-w-0">
          {payment.events.map((event) => (
            <li key={event.eventId} className="break-all text-xs">
              <AdminTime iso={event.receivedAt} /> <code>{event.eventId}</code>
            </li>
          ))}
        </ul>
      ),
  },
];

export function PaymentsTable({ order }: { order: AdminOrder }) {
  if (order.payments.length === 0) {
    return (
      <p className="text-slate-600">
        No payment through a gateway (
        {order.paymentMethod === "key" ? "a redeemed key" : `paid with ${order.paymentMethod}`}).
      </p>
    );
  }
  return (
    <RecordTable
      label="Payments"
      stacked="admin-payments"
      columns={PAYMENT_COLUMNS}
      rows={order.payments}
      rowKey={(payment) => payment._id}
      empty=""
    />
  );
}
