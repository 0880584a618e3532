import type { Faq } from "~/lib/content.server";

export type FaqEntry = Faq;

/**
 * Questions as <details>: they open and close with a click or Enter/Space, with or without JavaScript.
 * A long answer scrolls inside its panel (at most 500px), so one answer never pushes the rest away.
 */
export function FaqAccordion({ faqs }: { faqs: readonly FaqEntry[] }) {
  return (
    <div className="divide-y divide-slate-200 overflow-hidden rounded-2xl border border-slate-200 bg-white text-left shadow-sm">
      {faqs.map((faq) => (
        <details key={faq._id} className="group">
          <summary className="flex cursor-pointer list-none items-center justify-between gap-4 px-5 py-4 font-semibold text-ink hover:bg-slate-50 focus-visible:-outline-offset-4 [&::-webkit-details-marker]:hidden">
            <span>{faq.question}</span>
            <span
              aria-hidden="true"
              className="grid size-7 shrink-0 place-items-center rounded-full bg-brand-50 text-lg leading-none text-brand-700 transition-transform group-open:rotate-45"
            >
              +
            </span>
          </summary>
          <div className="max-h-[500px] overflow-y-auto px-5 pb-5 whitespace-pre-line text-slate-700">{faq.answer}</div>
        </details>
      ))}
    </div>
  );
}
