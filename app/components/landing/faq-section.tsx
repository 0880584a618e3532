import { Link } from "@remix-run/react";
import { type FaqEntry, FaqAccordion } from "./faq-accordion";
import { LandingSection } from "./landing-section";

const linkClass = "font-semibold text-brand-700 underline underline-offset-4 hover:text-brand-600";

export function FaqSection({ faqs, moreOnFaqPage }: { faqs: readonly FaqEntry[]; moreOnFaqPage: boolean }) {
  return (
    <LandingSection id="faq" className="bg-white">
      <div className="mx-auto w-full max-w-3xl text-center">
        <h2 id="faq-title" className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">
          Questions, answered
        </h2>
        <p className="mx-auto mt-4 max-w-xl text-lg text-slate-600">
          The things customers ask before their first order.
        </p>
        <div className="mt-8">
          <FaqAccordion faqs={faqs} />
        </div>
        <p className="mt-6 text-slate-600">
          {moreOnFaqPage ? "More answers on the " : "Something else? See the "}
          <Link to="/faqs" className={linkClass}>
            FAQ page
          </Link>{" "}
          or{" "}
          <Link to="/faqs#contact" className={linkClass}>
            contact support
          </Link>
          .
        </p>
      </div>
    </LandingSection>
  );
}
