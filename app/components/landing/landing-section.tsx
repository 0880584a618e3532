import type { ReactNode } from "react";

/**
 * One screen of the landing page. Without JavaScript the sections simply follow each other; with it,
 * the scroller moves between them. tabIndex -1 lets the scroller hand keyboard focus to a section.
 */
export function LandingSection({ id, className, children }: { id: string; className: string; children: ReactNode }) {
  return (
    <section
      id={id}
      data-section=""
      aria-labelledby={`${id}-title`}
      tabIndex={-1}
      className={`relative flex min-h-svh flex-col justify-center px-5 py-12 outline-none sm:px-12 ${className}`}
    >
      {children}
    </section>
  );
}
