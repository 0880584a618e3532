import { type ActionFunctionArgs, type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import {
  Form,
  isRouteErrorResponse,
  Link,
  useLoaderData,
  useLocation,
  useRevalidator,
  useRouteError,
} from "@remix-run/react";
import { useEffect } from "react";
import { FormErrors, SubmitButton } from "~/components/account/form-fields";
import { RouteDialog } from "~/components/dialog";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { ticketMessageSchema } from "~/components/tickets/schemas";
import { MessageList, TicketSummary } from "~/components/tickets/conversation";
import { MessageField, REPLY_PROMISE } from "~/components/tickets/ticket-fields";
import { formAction, toastAnswer } from "~/lib/form-action.server";
import { requireUser } from "~/lib/session.server";
import { readTicket, sendTicketMessage, setTicketOpen } from "~/lib/tickets.server";
import { redirectWithSuccess } from "~/lib/toast.server";
import { FORM_CONSTRAINTS } from "~/components/tickets/schemas.constraints";
import { getFormProps } from "~/lib/server-form";
import { useRepliedServerForm } from "~/lib/form-reply";
import { listQuery } from "./tickets";
import type { z } from "zod";

export const meta: MetaFunction = () => [{ title: "Support Ticket | Store" }];

/** How often an open conversation asks for new replies while it is on screen (JavaScript only). */
const POLL_MS = 10_000;

export async function loader({ request, context, params }: LoaderFunctionArgs) {
  await requireUser(request, context);
  return { ticket: await readTicket(context, request, params.ticketId ?? "") };
}

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireUser(request, context);
  const ticketId = params.ticketId ?? "";
  const here = `/tickets/${ticketId}${listQuery(new URL(request.url).searchParams)}`;
  const formData = await request.formData();
  const intent = formData.get("intent");
  if (intent === "close" || intent === "reopen") {
    return toastAnswer(context, here, await setTicketOpen(context, request, ticketId, intent === "reopen"));
  }
  // Any other post is the message form's (its button says intent=send).
  return formAction(formData, {
    form: "ticket-message",
    schema: ticketMessageSchema,
    call: ({ message }) => sendTicketMessage(context, request, { ticketId, message }),
    done: (answer) => redirectWithSuccess(context, here, answer.message),
  });
}

/** New staff replies appear while the conversation is open and the tab is visible; without JS, reload the page. */
function usePollForReplies(enabled: boolean) {
  const { revalidate, state } = useRevalidator();
  useEffect(() => {
    if (!enabled) return;
    const timer = window.setInterval(() => {
      if (document.visibilityState === "visible" && state === "idle") revalidate();
    }, POLL_MS);
    return () => window.clearInterval(timer);
  }, [enabled, revalidate, state]);
}

function useCloseHref() {
  return `/tickets${listQuery(new URLSearchParams(useLocation().search))}`;
}

function MessageForm({ to }: { to: string }) {
  const [form, fields] = useRepliedServerForm<z.input<typeof ticketMessageSchema>>(
    FORM_CONSTRAINTS.ticketMessage,
    "ticket-message",
  );
  return (
    <Form method="post" action={to} preventScrollReset {...getFormProps(form)} className="flex flex-col gap-2">
      <FormErrors form={form} />
      <MessageField label="Your message" meta={fields.message} rows={3} />
      <div>
        <SubmitButton intent="send" pendingText="Sending…">
          Send Message
        </SubmitButton>
      </div>
    </Form>
  );
}

export default function TicketConversation() {
  const { ticket } = useLoaderData<typeof loader>();
  const location = useLocation();
  const closeHref = useCloseHref();
  const open = ticket.status === "open";
  const formAction = location.pathname + location.search;
  usePollForReplies(open);
  return (
    <RouteDialog title={ticket.subject} closeHref={closeHref} closeLabel="Close conversation">
      <TicketSummary ticket={ticket} className="mb-4 text-sm text-slate-600" />
      <MessageList messages={ticket.messages} className="mb-4 flex flex-col gap-3" />
      {open ? (
        <>
          <p className="mb-2 text-sm text-slate-600">{REPLY_PROMISE}</p>
          {/* A new message remounts the form, so the sent text leaves the box (the page was not reloaded). */}
          <MessageForm key={ticket.messages.length} to={formAction} />
          <Form method="post" action={formAction} preventScrollReset className="mt-4 border-t border-slate-200 pt-4">
            <button
              type="submit"
              name="intent"
              value="close"
              className="rounded-lg border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-100"
            >
              Close Ticket
            </button>
          </Form>
        </>
      ) : (
        <Form method="post" action={formAction} preventScrollReset className="flex flex-col items-start gap-2">
          <p className="text-slate-600">This ticket is closed. Reopen it to write again.</p>
          <button
            type="submit"
            name="intent"
            value="reopen"
            className="rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700"
          >
            Reopen Ticket
          </button>
        </Form>
      )}
    </RouteDialog>
  );
}

export function ErrorBoundary() {
  const error = useRouteError();
  const closeHref = useCloseHref();
  if (isRouteErrorResponse(error) && error.status === 404) {
    return (
      <RouteDialog title="Ticket not found" closeHref={closeHref} closeLabel="Close">
        <p className="mb-4 text-slate-600">This ticket does not exist or is not yours.</p>
        <Link to={closeHref} className="font-semibold text-brand-700 underline">
          Back to your tickets
        </Link>
      </RouteDialog>
    );
  }
  return <GeneralErrorBoundary />;
}
