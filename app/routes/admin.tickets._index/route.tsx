import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { z } from "zod";
import { TICKET_FILTERS } from "../../../contract/admin-inbox";
import { AdminList } from "~/components/admin/admin-list";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { type StaffTicketSummary, listTickets } from "./tickets.server";
import { listChoice, listQuery, listText } from "~/lib/list-query";

export const meta: MetaFunction = () => [{ title: "Tickets | Back office" }];

const TICKETS_PAGE = "/admin/tickets";
const FILTER_LABELS: Record<(typeof TICKET_FILTERS)[number], string> = {
  waiting: "Waiting for staff",
  open: "Open",
  closed: "Closed",
  all: "All",
};
const querySchema = z.object({ filter: listChoice(TICKET_FILTERS, "waiting"), search: listText() });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQuery(new URL(request.url), querySchema);
  return { query, list: await listTickets(context, request, query) };
}

function TicketCard({ ticket }: { ticket: StaffTicketSummary }) {
  return (
    <>
      <div className="flex flex-wrap items-baseline justify-between gap-2">
        <Link to={`${TICKETS_PAGE}/${ticket._id}`} className="font-semibold break-words text-brand-700 underline">
          {ticket.subject}
        </Link>
        <span className="text-sm text-slate-600">
          {ticket.waiting ? "Waiting for staff" : ticket.status === "open" ? "Open" : "Closed"} ·{" "}
          <AdminTime iso={ticket.updatedAt} />
        </span>
      </div>
      <p className="text-sm break-all text-slate-600">
        {ticket.customer.email}
        {ticket.customer.guest && " (guest)"} · {ticket.messages} {ticket.messages === 1 ? "message" : "messages"}
      </p>
      <p className="line-clamp-2 text-sm break-words">{ticket.lastMessage}</p>
    </>
  );
}

export default function TicketsPage() {
  const { query, list } = useLoaderData<typeof loader>();
  return (
    <div className="flex flex-col gap-6">
      <AdminHeading title="Tickets">
        Customers&apos; tickets, and guests&apos; from the contact form. Waiting for staff lists open tickets whose last
        message is the customer&apos;s, the longest waiting first. Replies show to the customer as &apos;Admin&apos; and
        are mailed to them (to a guest with the answer and a link to the conversation).
      </AdminHeading>
      <AdminList
        label="Tickets"
        pathname={TICKETS_PAGE}
        query={query}
        tabs={{ name: "filter", label: "Ticket filters", options: FILTER_LABELS }}
        filters={[{ name: "search", label: "Search tickets", placeholder: "subject, customer email or order id" }]}
        empty={["No ticket matches this search.", "No ticket here."]}
        list={list}
        card={(ticket) => <TicketCard ticket={ticket} />}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
