import { Link } from "@remix-run/react";
import type { ReactNode } from "react";
import { STORE_NAME } from "./page-meta";
import { blocksOf, withoutSections } from "./document-blocks";

const LEGAL_LINKS = [
  { to: "/terms-of-service", label: "Terms of Service" },
  { to: "/privacy-policy", label: "Privacy Policy" },
  { to: "/faqs", label: "FAQ" },
  { to: "/faqs#contact", label: "Support" },
] as const;

/**
 * A legal document on a quiet page of its own. The store's header and footer are hidden here
 * (spec), so the page brings its own way back to the store and to the other documents.
 */
export function LegalPage({
  title,
  paragraphs,
  current,
  children,
  ownSections = [],
}: {
  title: string;
  paragraphs: string[];
  current: string;
  /** Sections the store states itself, after the editable text (the privacy policy's retention, ADR 044). */
  children?: ReactNode;
  /** The titles of those sections: the editable text's sections of the same titles are left out. */
  ownSections?: readonly string[];
}) {
  const blocks = withoutSections(blocksOf(paragraphs, title), ownSections);
  return (
    <div className="min-h-screen bg-white">
      <div className="border-b border-slate-200">
        <div className="mx-auto flex max-w-3xl items-center justify-between gap-4 px-4 py-4">
          <Link to="/" className="rounded font-extrabold tracking-tight text-ink">
            {STORE_NAME}
          </Link>
          <Link to="/shop" className="rounded text-sm font-medium text-brand-700 underline-offset-4 hover:underline">
            Back to the shop
          </Link>
        </div>
      </div>

      <div className="mx-auto max-w-3xl px-4 py-10 sm:py-14">
        <h1 className="text-3xl font-bold tracking-tight text-ink sm:text-4xl">{title}</h1>
        <div className="mt-8 space-y-4 leading-relaxed text-slate-700">
          {blocks.map((block, index) => {
            const key = `${block.kind}-${index}`;
            if (block.kind === "heading") {
              return (
                <h2 key={key} className="pt-4 text-xl font-semibold text-ink">
                  {block.text}
                </h2>
              );
            }
            if (block.kind === "list") {
              return (
                <ul key={key} className="list-disc space-y-1 pl-6">
                  {block.items.map((item, itemIndex) => (
                    <li key={`${key}-${itemIndex}`}>{item}</li>
                  ))}
                </ul>
              );
            }
            return <p key={key}>{block.text}</p>;
          })}
          {children}
        </div>
      </div>

      <footer className="border-t border-slate-200">
        <div className="mx-auto flex max-w-3xl flex-wrap items-center justify-between gap-4 px-4 py-6 text-sm text-slate-600">
          <nav aria-label="Legal and help">
            <ul className="flex flex-wrap gap-x-5 gap-y-2">
              {LEGAL_LINKS.map((link) => (
                <li key={link.to}>
                  <Link
                    to={link.to}
                    aria-current={link.to === current ? "page" : undefined}
                    className="rounded underline-offset-4 hover:underline aria-[current=page]:font-semibold aria-[current=page]:text-ink"
                  >
                    {link.label}
                  </Link>
                </li>
              ))}
            </ul>
          </nav>
          <p>© 2024 {STORE_NAME}</p>
        </div>
      </footer>
    </div>
  );
}
