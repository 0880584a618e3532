import { Link, useLocation } from "@remix-run/react";
import { ORDER_STATUS_LABELS } from "../../../contract/browser/order";
import { AdminTime } from "~/components/admin/admin-ui";
import { Pager } from "~/components/pager";
import { type Column, PageSection, RecordTable, byId } from "~/components/admin/detail-ui";
import type { StaffLedgerEntry, readCustomerPage } from "./customer.server";
import { formatUsd } from "~/lib/money";

/* A customer's three lists on their back-office page: the balance ledger, their orders and their tickets. */

/** Each list of the page pages on its own, its page kept in the address beside the others'. */
export const CUSTOMER_LISTS = ["orders", "tickets", "ledger"] as const;
export type CustomerListName = (typeof CUSTOMER_LISTS)[number];

type CustomerPage = Awaited<ReturnType<typeof readCustomerPage>>;
type Records<Name extends CustomerListName> = CustomerPage[Name]["records"][number];

/** What a ledger entry was, in staff's words: a debit without an order, or an adjustment, was made by staff. */
function entryKind(entry: StaffLedgerEntry): string {
  if (entry.type === "in") return "Top-up";
  if (entry.type === "refund") return "Refund";
  if (entry.type === "out" && entry.orderId) return "Order payment";
  return entry.amount < 0 ? "Debit by staff" : "Credit by staff";
}

/** An email in a narrow column: it may wrap before its @, never inside a word. */
function EmailInCell({ email }: { email: string }) {
  const at = email.lastIndexOf("@");
  if (at <= 0) return <span className="break-words">{email}</span>;
  return (
    <>
      <span className="whitespace-nowrap">{email.slice(0, at)}</span>
      <wbr />
      <span className="whitespace-nowrap">{email.slice(at)}</span>
    </>
  );
}

function OrderLink({ orderId, label, mono = true }: { orderId: string; label: string; mono?: boolean }) {
  return (
    <Link
      to={`/find-order?id=${encodeURIComponent(orderId)}`}
      className={mono ? "font-mono text-brand-700 underline" : "text-brand-700 underline"}
    >
      {label}
    </Link>
  );
}

const LEDGER_COLUMNS: Column<Records<"ledger">>[] = [
  { header: "When", cell: (entry) => <AdminTime iso={entry.createdAt} /> },
  {
    header: "What",
    cell: (entry) =>
      entry.orderId ? <OrderLink orderId={entry.orderId} label={entryKind(entry)} mono={false} /> : entryKind(entry),
  },
  {
    header: "Amount",
    numeric: true,
    cell: (entry) => (
      <span className={`font-semibold ${entry.amount < 0 ? "text-red-700" : "text-green-700"}`}>
        {entry.amount < 0 ? "−" : "+"}
        {formatUsd(Math.abs(entry.amount))}
      </span>
    ),
  },
  { header: "Balance after", numeric: true, cell: (entry) => formatUsd(entry.balanceAfter) },
  { header: "Reason or note", className: "break-words", cell: (entry) => entry.note },
  { header: "By", testId: "ledger-by", cell: (entry) => entry.staffEmail && <EmailInCell email={entry.staffEmail} /> },
];

const ORDER_COLUMNS: Column<Records<"orders">>[] = [
  { header: "Order", cell: (order) => <OrderLink orderId={order._id} label={order._id.slice(0, 8)} /> },
  { header: "Placed", cell: (order) => <AdminTime iso={order.createdAt} /> },
  { header: "Status", cell: (order) => ORDER_STATUS_LABELS[order.status] },
  { header: "Items", className: "break-words", cell: (order) => order.items },
  {
    header: "Total",
    numeric: true,
    cell: (order) => (
      <>
        {formatUsd(order.price)}
        {order.discount > 0 && (
          <span className="block text-xs text-slate-600">−{formatUsd(order.discount)} coupon</span>
        )}
      </>
    ),
  },
  { header: "Paid with", cell: (order) => order.paymentMethod },
];

const TICKET_COLUMNS: Column<Records<"tickets">>[] = [
  { header: "Subject", className: "break-words", cell: (ticket) => ticket.subject },
  { header: "Status", cell: (ticket) => (ticket.status === "open" ? "Open" : "Closed") },
  {
    header: "Order",
    cell: (ticket) =>
      ticket.orderId ? <OrderLink orderId={ticket.orderId} label={ticket.orderId.slice(0, 8)} /> : "General question",
  },
  { header: "Last activity", cell: (ticket) => <AdminTime iso={ticket.updatedAt} /> },
];

const LIST_VIEWS = [
  {
    name: "ledger",
    title: "Balance ledger",
    pages: "Ledger pages",
    empty: "No balance changes yet.",
    columns: LEDGER_COLUMNS,
  },
  { name: "orders", title: "Orders", pages: "Order pages", empty: "No orders.", columns: ORDER_COLUMNS },
  { name: "tickets", title: "Tickets", pages: "Ticket pages", empty: "No tickets.", columns: TICKET_COLUMNS },
] as const;

export function CustomerLists({ lists }: { lists: Pick<CustomerPage, CustomerListName> }) {
  const location = useLocation();
  const listHref = (name: CustomerListName, page: number) => {
    const kept = new URLSearchParams(location.search);
    if (page > 1) kept.set(name, String(page));
    else kept.delete(name);
    return kept.size ? `${location.pathname}?${kept}` : location.pathname;
  };
  return LIST_VIEWS.map(({ name, title, pages, empty, columns }) => (
    <PageSection key={name} id={name} title={title}>
      <RecordTable
        label={title}
        columns={columns as Column<{ _id: string }>[]}
        rows={lists[name].records}
        rowKey={byId}
        empty={empty}
      />
      <Pager
        label={pages}
        pager={lists[name].pager}
        total={lists[name].pager.total}
        keepScroll={false}
        href={(page) => listHref(name, page)}
      />
    </PageSection>
  ));
}
