import { getFormProps, getTextareaProps } from "@conform-to/react";
import { parseWithZod } from "@conform-to/zod";
import { type ActionFunctionArgs, data, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Form, Link, useActionData, useLoaderData } from "@remix-run/react";
import { staffReplySchema } from "../../contract/admin-inbox";
import { AdminHeading, AdminTime, secondaryButtonClass } from "~/components/admin/admin-ui";
import { ErrorList, FormErrors, SubmitButton } from "~/components/account/form-fields";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { requireStaff } from "~/lib/admin.server";
import { readTicket, replyToTicket, setTicketStatus } from "~/lib/admin-inbox.server";
import { replyFromApi } from "~/lib/api-reply.server";
import { redirectWithError, redirectWithSuccess } from "~/lib/toast.server";
import { useSchemaForm } from "~/lib/use-schema-form";

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
  const intent = formData.get("intent");
  if (intent === "close" || intent === "reopen") {
    const answer = await setTicketStatus(context, request, ticketId, intent === "close" ? "closed" : "open");
    return answer.ok
      ? redirectWithSuccess(context, here, answer.message)
      : redirectWithError(context, here, answer.message);
  }
  const submission = parseWithZod(formData, { schema: staffReplySchema });
  if (submission.status !== "success") return data({ result: submission.reply() }, { status: 400 });
  const answer = await replyToTicket(context, request, ticketId, submission.value.message);
  if (!answer.ok) {
    const { result, status } = replyFromApi(submission, answer, { fields: ["message"] });
    return data({ result }, { status });
  }
  return redirectWithSuccess(context, here, answer.message);
}

function ReplyForm() {
  const [form, fields] = useSchemaForm(staffReplySchema, {
    id: "ticket-reply",
    lastResult: useActionData<typeof action>()?.result,
  });
  const { key, ...messageProps } = getTextareaProps(fields.message);
  return (
    <Form method="post" {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <label htmlFor={fields.message.id} className="font-semibold">
        Reply as Admin
      </label>
      <textarea
        key={key}
        {...messageProps}
        rows={4}
        className="w-full rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600"
      />
      <ErrorList id={fields.message.errorId} errors={fields.message.errors} />
      <div>
        <SubmitButton intent="reply" pendingText="Sending…">
          Send reply
        </SubmitButton>
      </div>
    </Form>
  );
}

export default function TicketPage() {
  const { ticket } = useLoaderData<typeof loader>();
  const open = ticket.status === "open";
  return (
    <div className="flex flex-col gap-6">
      <p>
        <Link to="/admin/tickets" className="font-semibold text-brand-700 underline">
          All tickets
        </Link>
      </p>
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
      <Form method="post">
        <button type="submit" name="intent" value={open ? "close" : "reopen"} className={secondaryButtonClass}>
          {open ? "Close ticket" : "Reopen ticket"}
        </button>
      </Form>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
