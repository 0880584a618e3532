import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { FaqAccordion } from "~/components/landing/faq-accordion";
import { pageMeta } from "~/components/legal/page-meta";
import { readFaqs } from "~/lib/content.server";

export async function loader({ context }: LoaderFunctionArgs) {
  return { faqs: await readFaqs(context) };
}

const linkClass = "font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-600";

export default function Faqs() {
  const { faqs } = useLoaderData<typeof loader>();
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
        <p className="mt-3 text-slate-700">
          Support works through tickets, so our team sees your order straight away and replies within 24 hours. Tickets
          need an account: if you checked out as a guest, an account was created with your email, and{" "}
          <Link to="/forgot" className={linkClass}>
            Forgot password
          </Link>{" "}
          lets you set its password.
        </p>
        <div className="mt-5 flex flex-wrap items-center gap-3">
          <Link
            to="/tickets"
            className="rounded-lg bg-brand-700 px-5 py-2.5 font-semibold text-white shadow-sm hover:bg-brand-600"
          >
            Open a support ticket
          </Link>
          <Link
            to="/login"
            className="rounded-lg border border-slate-300 bg-white px-5 py-2.5 font-semibold text-ink hover:bg-slate-50"
          >
            Sign in
          </Link>
        </div>
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
