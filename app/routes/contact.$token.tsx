import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
} from "@remix-run/node";
import { Form, isRouteErrorResponse, Link, useLoaderData, useRouteError } from "@remix-run/react";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import { contactReplyFormSchema } from "~/components/contact/schemas";
import { FORM_CONSTRAINTS } from "~/components/contact/schemas.constraints";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { MessageList, TicketSummary } from "~/components/tickets/conversation";
import { MessageField, REPLY_PROMISE } from "~/components/tickets/ticket-fields";
import { formAction } from "~/lib/form-action.server";
import { readGuestTicket, replyAsGuest } from "~/lib/contact.server";
import { getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import { redirectWithSuccess } from "~/lib/toast.server";
import type { z } from "zod";

/*
 * A guest's conversation with support (ADR 039), opened by the link in a mail: the token in the address is the
 * only key, so the page is never cached, never indexed, and shows nothing of the guest but their own messages.
 */

export const meta: MetaFunction<typeof loader> = ({ data }) => [
  { title: `${data?.ticket.subject ?? "Conversation"} | Support | Store` },
  { name: "robots", content: "noindex" },
];

export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ context, params }: LoaderFunctionArgs) {
  return { ticket: await readGuestTicket(context, params.token ?? "") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  const token = params.token ?? "";
  return formAction(await request.formData(), {
    form: "contact-reply",
    schema: contactReplyFormSchema,
    call: async ({ message }) => {
      const answer = await replyAsGuest(context, token, message);
      if (!answer.ok && answer.status === 404) throw new Response(answer.message, { status: 404 });
      return answer;
    },
    done: (answer) => redirectWithSuccess(context, `/contact/${encodeURIComponent(token)}`, answer.message),
  });
}

function ReplyForm() {
  const [form, fields] = useRepliedServerForm<z.input<typeof contactReplyFormSchema>>(
    FORM_CONSTRAINTS.contactReply,
    "contact-reply",
  );
  return (
    <Form method="post" preventScrollReset {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <MessageField label="Your message" meta={fields.message} rows={4} />
      <div>
        <SubmitButton pendingText="Sending…">Send Message</SubmitButton>
      </div>
    </Form>
  );
}

export default function GuestConversation() {
  const { ticket } = useLoaderData<typeof loader>();
  const open = ticket.status === "open";
  return (
    <div className="mx-auto flex max-w-2xl flex-col gap-6 px-4 py-10">
      <header>
        <p className="text-sm font-semibold text-brand-700">Support conversation</p>
        <h1 className="text-2xl font-bold tracking-tight break-words text-ink">{ticket.subject}</h1>
        <TicketSummary ticket={ticket} className="mt-1 text-sm text-slate-600" />
      </header>
      <MessageList messages={ticket.messages} className="flex flex-col gap-3" />
      {open ? (
        <section aria-label="Reply" className="rounded-xl border border-slate-200 bg-white p-4 shadow-sm">
          <p className="mb-2 text-sm text-slate-600">
            {REPLY_PROMISE} Our answer is mailed to you with a link back here.
          </p>
          {/* A new message remounts the form, so the sent text leaves the box. */}
          <ReplyForm key={ticket.messages.length} />
        </section>
      ) : (
        <p className="text-slate-600">
          This conversation is closed.{" "}
          <Link to="/contact" className="font-semibold text-brand-700 underline">
            Write to us again
          </Link>{" "}
          if you need more help.
        </p>
      )}
      <p className="text-sm text-slate-600">
        Keep this page&apos;s address to yourself: anyone with it can read and write in this conversation.
      </p>
    </div>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <div className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-10">
        <h1 className="text-2xl font-bold text-ink">Conversation not found</h1>
        <p className="text-slate-600">
          This link opens no conversation. Open the link in your latest mail from support, or write to us again.
        </p>
        <p>
          <Link to="/contact" className="font-semibold text-brand-700 underline">
            Contact Support
          </Link>
        </p>
      </div>
    );
  }
  return <GeneralErrorBoundary />;
}
