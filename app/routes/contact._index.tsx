import {
  type ActionFunctionArgs,
  type HeadersFunction,
  type LoaderFunctionArgs,
  type MetaFunction,
  redirect,
} from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { TextField } from "~/components/account/form-fields";
import { contactFormSchema } from "~/components/contact/schemas";
import { FORM_CONSTRAINTS } from "~/components/contact/schemas.constraints";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { GuardedFormPage } from "~/components/guarded-form-page";
import { pageMeta } from "~/components/legal/page-meta";
import { MessageField, REPLY_PROMISE } from "~/components/tickets/ticket-fields";
import { freshHumanCheck } from "~/lib/accounts.server";
import { openGuestTicket } from "~/lib/contact.server";
import { formAction } from "~/lib/form-action.server";
import { HUMAN_CHECK_FIELD } from "~/lib/human-check-field";
import { useRepliedServerForm } from "~/lib/form-reply";
import { getCurrentUser } from "~/lib/session.server";
import type { z } from "zod";

/*
 * Support without an account (issue 26 item 3, ADR 039): an email, an optional order id and a message open a
 * ticket; the link to its conversation is mailed to that email, never shown here, so only the address's owner
 * reads the answers. Signed-in customers are pointed to their tickets, and may still write from here.
 */

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Contact Support | Store",
    description: "Write to our support team with your email and, if it is about one, your order id. We reply by mail.",
  });

// The form carries a single-use human-check token: a page from the page cache would hand two visitors the same one.
export const headers: HeadersFunction = () => ({ "Cache-Control": "private, no-store" });

export async function loader({ request, context }: LoaderFunctionArgs) {
  const [humanCheck, user] = await Promise.all([freshHumanCheck(context), getCurrentUser(request, context)]);
  const orderId = new URL(request.url).searchParams.get("orderId") ?? "";
  return {
    humanCheck,
    signedIn: Boolean(user),
    email: user?.email ?? "",
    orderId: PUBLIC_ID_PATTERN.test(orderId) ? orderId : "",
  };
}

export async function action({ request, context }: ActionFunctionArgs) {
  return formAction(await request.formData(), {
    form: "contact",
    schema: contactFormSchema,
    fields: ["email", "orderId", "message"],
    honeypot: true,
    // A refused post spent its human-check answer: the form gets a new challenge with the errors.
    extra: () => freshHumanCheck(context),
    call: ({ [HUMAN_CHECK_FIELD]: humanCheck, ...fields }) => openGuestTicket(context, { ...fields, humanCheck }),
    done: () => redirect("/contact/sent", 303),
  });
}

export default function ContactPage() {
  const loaded = useLoaderData<typeof loader>();
  const [form, fields] = useRepliedServerForm<z.input<typeof contactFormSchema>>(FORM_CONSTRAINTS.contact, "contact", {
    defaultValue: { email: loaded.email, orderId: loaded.orderId },
  });
  return (
    <GuardedFormPage
      title="Contact Support"
      intro={
        <>
          <p className="mt-2 text-slate-600">
            No account needed. Tell us what happened; we mail you a link to the conversation, and our answer comes by
            mail too. {REPLY_PROMISE}
          </p>
          {loaded.signedIn && (
            <p className="mt-3 rounded-lg bg-brand-50 p-3 text-sm text-slate-700">
              You are signed in:{" "}
              <Link to="/tickets" className="font-semibold text-brand-700 underline">
                your support tickets
              </Link>{" "}
              keep the conversation in your account.
            </p>
          )}
        </>
      }
      form={form}
      humanCheck={loaded.humanCheck}
      submit="Send Message"
      pendingText="Sending…"
      after={
        <p className="text-sm text-slate-600">
          Looking for an order?{" "}
          <Link to="/find-order" className="font-semibold text-brand-700 underline">
            Find it with your order id
          </Link>
          .
        </p>
      }
    >
      <TextField label="Email Address" meta={fields.email} type="email" autoComplete="email" inputMode="email" />
      <TextField
        label="Order ID (optional)"
        meta={fields.orderId}
        type="text"
        autoComplete="off"
        hint="From your order mail or the order page's address, if your message is about one order."
      />
      <MessageField label="Message" meta={fields.message} rows={5} />
    </GuardedFormPage>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
