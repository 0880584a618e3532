import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { staffReplySchema } from "../../../contract/admin-inbox";
import { AdminForm, TextAreaField } from "~/components/admin/admin-fields";
import { AdminHeading, AdminTime } from "~/components/admin/admin-ui";
import { BackLink, CommandForm } from "~/components/admin/detail-ui";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { readTicket, replyToTicket, setTicketStatus } from "./ticket.server";
import { formAction, intentOf, toastAnswer } from "~/lib/form-action.server";
import { useRepliedSchemaForm } from "~/lib/use-schema-form";

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.ticket.subject ?? "Ticket"} | Back office` },
];

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireStaff(request, context, "support");
  return { ticket: await readTicket(context, request, params.ticketId ?? "") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "support");
  const ticketId = params.ticketId ?? "";
  const here = `/admin/tickets/${encodeURIComponent(ticketId)}`;
  const formData = await request.formData();
  const intent = intentOf(formData, ["reply", "close", "reopen"]);
  if (intent !== "reply") {
    const status = intent === "close" ? "closed" : "open";
    return toastAnswer(context, here, await setTicketStatus(context, request, ticketId, status));
  }
  return formAction(formData, {
    form: "ticket-reply",
    schema: staffReplySchema,
    call: ({ message }) => replyToTicket(context, request, ticketId, message),
    done: (answer) => toastAnswer(context, here, answer),
  });
}

function ReplyForm() {
  const [form, fields] = useRepliedSchemaForm(staffReplySchema, "ticket-reply");
  return (
    <AdminForm form={form} intent="reply" submitLabel="Send reply" pendingText="Sending…">
      <TextAreaField meta={fields.message} label="Reply as Admin" rows={4} />
    </AdminForm>
  );
}

export default function TicketPage() {
  const { ticket } = useLoaderData<typeof loader>();
  const open = ticket.status === "open";
  return (
    <div className="flex flex-col gap-6">
      <BackLink to="/admin/tickets">All tickets</BackLink>
      <AdminHeading title={ticket.subject}>
        {ticket.waiting ? "Waiting for staff" : open ? "Open" : "Closed"} · opened <AdminTime iso={ticket.createdAt} />
      </AdminHeading>
      <dl className="grid grid-cols-1 gap-x-4 gap-y-1 text-sm sm:grid-cols-[8rem_minmax(0,1fr)]">
        <dt className="font-semibold">{ticket.customer.guest ? "Guest" : "Customer"}</dt>
        <dd className="break-all">
          {ticket.customer._id ? (
            <Link to={`/admin/customers/${ticket.customer._id}`} className="text-brand-700 underline">
              {ticket.customer.email}
            </Link>
          ) : (
            <>
              {ticket.customer.email}{" "}
              <span className="text-slate-600">(no account: replies are mailed with a link to the conversation)</span>
            </>
          )}
        </dd>
        <dt className="font-semibold">Order</dt>
        <dd className="break-all">
          {ticket.orderId ? (
            <Link to={`/admin/orders/${ticket.orderId}`} className="font-mono text-brand-700 underline">
              {ticket.orderId}
            </Link>
          ) : (
            "A general question"
          )}
        </dd>
      </dl>
      <ol aria-label="Conversation" className="flex flex-col gap-3">
        {ticket.messages.map((message) => (
          <li
            key={message._id}
            className={`rounded-xl border p-3 ${message.fromStaff ? "border-brand-200 bg-brand-50" : "border-slate-200 bg-white"}`}
          >
            <p className="text-sm">
              <span className="font-semibold">{message.author}</span>
              {message.staffEmail && <span className="text-slate-600"> ({message.staffEmail})</span>} ·{" "}
              <AdminTime iso={message.at} />
            </p>
            <p className="break-words whitespace-pre-line">{message.message}</p>
          </li>
        ))}
      </ol>
      {open ? <ReplyForm /> : <p className="text-slate-600">This ticket is closed. Reopen it to reply.</p>}
      <CommandForm intent={open ? "close" : "reopen"} label={open ? "Close ticket" : "Reopen ticket"} />
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
