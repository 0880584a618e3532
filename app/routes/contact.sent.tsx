import type { MetaFunction } from "@remix-run/node";
import { Link } from "@remix-run/react";
import { pageMeta } from "~/components/legal/page-meta";
import { REPLY_PROMISE } from "~/components/tickets/ticket-fields";

/* Where the contact form lands (ADR 039): the link to the conversation went by mail, so this page names none. */

export const meta: MetaFunction = () => [
  ...pageMeta({
    title: "Message sent | Store",
    description: "Your message reached our support team; the link to the conversation is in your mail.",
  }),
  { name: "robots", content: "noindex" },
];

export default function ContactSentPage() {
  return (
    <div className="mx-auto flex max-w-xl flex-col gap-4 px-4 py-10">
      <h1 className="text-3xl font-bold tracking-tight text-ink">Message sent</h1>
      <p role="status" className="rounded-lg border border-emerald-200 bg-emerald-50 p-4 text-emerald-900">
        Your message reached our support team. We mailed you a link to the conversation: open it to read our answer and
        write more. {REPLY_PROMISE}
      </p>
      <p className="text-slate-600">
        No mail after a few minutes? Look in your spam folder, or{" "}
        <Link to="/contact" className="font-semibold text-brand-700 underline">
          write to us again
        </Link>{" "}
        and check the address.
      </p>
      <p>
        <Link to="/shop" className="font-semibold text-brand-700 underline">
          Back to the shop
        </Link>
      </p>
    </div>
  );
}
