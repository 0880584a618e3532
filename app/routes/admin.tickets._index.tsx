import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { TICKET_FILTERS } from "../../contract/admin-inbox";
import { AdminHeading, AdminTime, Pager, pageHref } from "~/components/admin/admin-ui";
import { FilterLinks, SearchForm, listQueryFrom } from "~/components/admin/inbox-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { listTickets } from "~/lib/admin-inbox.server";

export const meta: MetaFunction = () => [{ title: "Tickets | Back office" }];

const TICKETS_PAGE = "/admin/tickets";
const FILTER_LABELS: Record<(typeof TICKET_FILTERS)[number], string> = {
  waiting: "Waiting for staff",
  open: "Open",
  closed: "Closed",
  all: "All",
};

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  const query = listQueryFrom(new URL(request.url), TICKET_FILTERS, "waiting");
  return { query, list: await listTickets(context, request, query) };
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
      <FilterLinks
        label="Ticket filters"
        pathname={TICKETS_PAGE}
        current={query.filter}
        search={query.search}
        filters={TICKET_FILTERS.map((value) => ({ value, label: FILTER_LABELS[value] }))}
      />
      <SearchForm
        id="ticket-search"
        label="Search tickets"
        filter={query.filter}
        search={query.search}
        placeholder="subject, customer email or order id"
      />
      {list.records.length === 0 ? (
        <p className="text-slate-600">{query.search ? "No ticket matches this search." : "No ticket here."}</p>
      ) : (
        <ul aria-label="Tickets" className="flex flex-col gap-2">
          {list.records.map((ticket) => (
            <li key={ticket._id} className="rounded-xl border border-slate-200 bg-white p-4">
              <div className="flex flex-wrap items-baseline justify-between gap-2">
                <Link
                  to={`${TICKETS_PAGE}/${ticket._id}`}
                  className="font-semibold break-words text-brand-700 underline"
                >
                  {ticket.subject}
                </Link>
                <span className="text-sm text-slate-600">
                  {ticket.waiting ? "Waiting for staff" : ticket.status === "open" ? "Open" : "Closed"} ·{" "}
                  <AdminTime iso={ticket.updatedAt} />
                </span>
              </div>
              <p className="text-sm break-all text-slate-600">
                {ticket.customer.email}
                {ticket.customer.guest && " (guest)"} · {ticket.messages}{" "}
                {ticket.messages === 1 ? "message" : "messages"}
              </p>
              <p className="line-clamp-2 text-sm break-words">{ticket.lastMessage}</p>
            </li>
          ))}
        </ul>
      )}
      <Pager
        label="Ticket pages"
        pager={list.pager}
        href={(page) => pageHref(TICKETS_PAGE, { filter: query.filter, search: query.search }, page)}
      />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
