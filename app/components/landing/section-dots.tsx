export type LandingSectionLink = { id: string; label: string };

/**
 * The side dots are plain in-page links, so they work without JavaScript; with it the page
 * intercepts them and marks the section on screen with aria-current.
 */
export function SectionDots({
  sections,
  active,
}: {
  sections: readonly LandingSectionLink[];
  /** The section on screen, or null before the scroller runs (then no dot claims to be current). */
  active: number | null;
}) {
  return (
    <nav aria-label="Page sections" className="fixed top-1/2 right-2 z-30 hidden -translate-y-1/2 sm:right-3 sm:block">
      <ol className="flex flex-col gap-1">
        {sections.map((section, index) => (
          <li key={section.id}>
            <a
              href={`#${section.id}`}
              aria-current={active === index ? "true" : undefined}
              className="group relative grid size-7 place-items-center rounded-full"
            >
              <span className="sr-only">{section.label}</span>
              <span
                aria-hidden="true"
                className="size-3 rounded-full bg-white ring-2 ring-slate-600 transition-transform group-hover:scale-125 group-aria-[current=true]:scale-150 group-aria-[current=true]:bg-brand-500 group-aria-[current=true]:ring-white"
              />
              <span
                aria-hidden="true"
                className="pointer-events-none absolute right-8 rounded bg-slate-900 px-2 py-1 text-xs font-medium whitespace-nowrap text-white opacity-0 group-hover:opacity-100 group-focus-visible:opacity-100"
              >
                {section.label}
              </span>
            </a>
          </li>
        ))}
      </ol>
    </nav>
  );
}
