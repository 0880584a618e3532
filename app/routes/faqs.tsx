import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FaqAccordion } from "~/components/landing/faq-accordion";
import { pageMeta } from "~/components/legal/page-meta";
import { readFaqs } from "~/lib/content.server";
import { getCurrentUser } from "~/lib/session.server";

/** Customers reach support through their tickets; guests through the contact form (ADR 039). */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const [faqs, user] = await Promise.all([readFaqs(context), getCurrentUser(request, context)]);
  return { faqs, signedIn: Boolean(user) };
}

const linkClass = "font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-600";
const primaryButtonClass = "rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-600";

export default function Faqs() {
  const { faqs, signedIn } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
      <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">Frequently asked questions</h1>
      <p className="mt-3 text-slate-600">
        Delivery, warranty, payments and support: the answers customers look for most.
      </p>

      <div className="mt-8">
        <FaqAccordion faqs={faqs} />
      </div>

      <section
        id="contact"
        aria-labelledby="contact-title"
        className="mt-12 scroll-mt-6 rounded-2xl bg-brand-50 p-6 sm:p-8"
      >
        <h2 id="contact-title" className="text-xl font-semibold text-ink">
          Still need help? Contact support
        </h2>
        {signedIn ? (
          <>
            <p className="mt-3 text-slate-700">
              Support works through tickets, so our team sees your order straight away and replies within 24 hours.
            </p>
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <Link to="/tickets" className={primaryButtonClass}>
                Open a support ticket
              </Link>
            </div>
          </>
        ) : (
          <>
            <p className="mt-3 text-slate-700">
              No account needed: write to us with your email and, if it is about one, your order id. We mail you a link
              to the conversation, and our answer comes by mail within 24 hours. With an account, sign in to keep your
              tickets in it (checked out as a guest? An account was made with your email, and{" "}
              <Link to="/forgot" className={linkClass}>
                Forgot password
              </Link>{" "}
              sets its password).
            </p>
            <div className="mt-5 flex flex-wrap items-center gap-3">
              <Link to="/contact" className={primaryButtonClass}>
                Contact support
              </Link>
              <Link
                to="/login"
                className="rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold text-ink hover:bg-slate-50"
              >
                Sign in
              </Link>
            </div>
          </>
        )}
        <p className="mt-5 text-sm text-slate-700">
          Only looking for an order?{" "}
          <Link to="/find-order" className={linkClass}>
            Find it with your order id
          </Link>
          .
        </p>
      </section>
    </div>
  );
}

export const meta: MetaFunction = () =>
  pageMeta({
    title: "FAQ · Store",
    description:
      "Answers about delivery, warranty and replacements, payment methods and support, and how to contact us.",
  });
