import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, Outlet, useLoaderData } from "@remix-run/react";
import { shownSubject } from "../../contract/browser/ticket";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { openTicketSchema } from "~/components/tickets/schemas";
import { MessageField, OrderField, REPLY_PROMISE, TicketTime } from "~/components/tickets/ticket-fields";
import { formAction } from "~/lib/form-action.server";
import { listMyOrders } from "~/lib/orders.server";
import { requireUser } from "~/lib/session.server";
import { listTickets, openTicket } from "~/lib/tickets.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/tickets/schemas.constraints";
import { getFormProps, getInputProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import type { z } from "zod";
import { Pager } from "~/components/pager";

export const meta: MetaFunction = () => [{ title: "Support Tickets | Store" }];

/** The list's search and page, kept on the conversation's links so closing it comes back to the same list. */
export function listQuery(search: URLSearchParams): string {
  const kept = new URLSearchParams();
  for (const name of ["q", "page"]) if (search.get(name)) kept.set(name, search.get(name) ?? "");
  return kept.size ? `?${kept}` : "";
}

const orderDate = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeZone: "UTC" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const url = new URL(request.url);
  const search = (url.searchParams.get("q") ?? "").slice(0, 200);
  const page = Math.min(Math.max(1, Math.trunc(Number(url.searchParams.get("page"))) || 1), 100_000);
  const [tickets, orders] = await Promise.all([
    listTickets(context, request, { page, search }),
    listMyOrders(context, request, { page: 1, search: "", sortBy: "createdAt", status: undefined }),
  ]);
  const orderChoices = orders.records.map((order) => ({
    id: order._id,
    label: `${order.products[0]?.title ?? "Order"} · ${orderDate.format(new Date(order.createdAt))} · ${order._id.slice(0, 8)}`,
  }));
  // An order from the Contact Support link that is older than the latest page still gets its choice.
  const prefilled = url.searchParams.get("orderId") ?? "";
  if (prefilled && !orderChoices.some((order) => order.id === prefilled)) {
    orderChoices.unshift({ id: prefilled, label: `Order ${prefilled.slice(0, 8)}` });
  }
  return { tickets, orderChoices, prefilled, search };
}

export async function action({ request, context }: ActionFunctionArgs) {
  await requireUser(request, context);
  return formAction(await request.formData(), {
    form: "new-ticket",
    schema: openTicketSchema,
    call: (ticket) => openTicket(context, request, ticket),
    done: (answer) => redirectWithSuccess(context, `/tickets/${answer.payload._id}`, answer.message),
  });
}

function NewTicketForm({ orders, prefilled }: { orders: { id: string; label: string }[]; prefilled: string }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof openTicketSchema>>(
    FORM_CONSTRAINTS.openTicket,
    "new-ticket",
    { defaultValue: { orderId: prefilled } },
  );
  const { key: subjectKey, ...subjectProps } = getInputProps(fields.subject, { type: "text" });
  return (
    <section aria-labelledby="new-ticket-title" className="rounded-xl border border-slate-200 bg-white p-6 shadow-sm">
      <h2 id="new-ticket-title" className="text-lg font-bold">
        Open a ticket
      </h2>
      <p className="mb-4 text-sm text-slate-600">{REPLY_PROMISE}</p>
      <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
        <FormErrors form={form} />
        <OrderField meta={fields.orderId} orders={orders} />
        <div className="flex flex-col gap-1">
          <label htmlFor={fields.subject.id} className="text-sm font-semibold">
            Subject
          </label>
          <input
            key={subjectKey}
            {...subjectProps}
            className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
          />
          <ErrorList id={fields.subject.errorId} errors={fields.subject.errors} />
        </div>
        <MessageField label="Message" meta={fields.message} />
        <div>
          <SubmitButton pendingText="Sending…">Open Ticket</SubmitButton>
        </div>
      </Form>
    </section>
  );
}

export default function TicketsPage() {
  const { tickets, orderChoices, prefilled, search } = useLoaderData<typeof loader>();
  const { records, pager } = tickets;
  const pageHref = (page: number) => `/tickets${listQuery(new URLSearchParams({ q: search, page: String(page) }))}`;
  const kept = listQuery(new URLSearchParams({ q: search, page: pager.page > 1 ? String(pager.page) : "" }));
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <header>
        <h1 className="text-3xl font-bold">Support Tickets</h1>
        <p className="text-slate-600">Ask about an order or anything else. {REPLY_PROMISE}</p>
      </header>
      <div className="grid grid-cols-[minmax(0,1fr)] gap-8 lg:grid-cols-[minmax(0,2fr)_minmax(0,3fr)]">
        <NewTicketForm orders={orderChoices} prefilled={prefilled} />
        <section aria-labelledby="ticket-list-title" className="flex min-w-0 flex-col gap-4">
          <h2 id="ticket-list-title" className="text-lg font-bold">
            Your tickets
          </h2>
          <Form method="get" role="search" className="flex gap-2">
            <label htmlFor="ticket-search" className="sr-only">
              Search tickets
            </label>
            <input
              id="ticket-search"
              type="search"
              name="q"
              defaultValue={search}
              maxLength={200}
              placeholder="Search by subject"
              className="min-w-0 flex-1 rounded-md border border-slate-300 px-3 py-2"
            />
            <button
              type="submit"
              className="rounded-lg border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-100"
            >
              Search
            </button>
          </Form>
          {records.length === 0 ? (
            <p className="text-slate-600">{search ? "No ticket matches your search." : "You have no tickets yet."}</p>
          ) : (
            <ul className="flex flex-col divide-y divide-slate-200 rounded-xl border border-slate-200 bg-white">
              {records.map((ticket) => (
                <li key={ticket._id}>
                  <Link
                    to={`/tickets/${ticket._id}${kept}`}
                    preventScrollReset
                    className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 p-4 hover:bg-slate-50"
                    title={ticket.subject}
                  >
                    <span className="min-w-0 break-words font-semibold">{shownSubject(ticket.subject)}</span>
                    <span className="flex items-center gap-3 text-sm text-slate-600">
                      <span
                        className={`rounded-full px-2 py-0.5 text-xs font-semibold ${
                          ticket.status === "open" ? "bg-green-100 text-green-800" : "bg-slate-200 text-slate-700"
                        }`}
                      >
                        {ticket.status === "open" ? "Open" : "Closed"}
                      </span>
                      <span>
                        Updated <TicketTime iso={ticket.updatedAt} />
                      </span>
                    </span>
                  </Link>
                </li>
              ))}
            </ul>
          )}
          <Pager label="Ticket pages" pager={pager} href={pageHref} />
        </section>
      </div>
      <Outlet />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
