import { Link } from "@remix-run/react";

/** Previous, "Page n of m" and Next under a storefront list; nothing when it has one page. Plain links, so no JS is needed. */
export function Pager({
  label,
  pager,
  href,
  testId,
}: {
  label: string;
  pager: { page: number; pages: number; previous: number | null; next: number | null };
  href: (page: number) => string;
  testId?: string;
}) {
  if (pager.pages <= 1) return null;
  const link = (page: number | null, text: string) =>
    page ? (
      <Link to={href(page)} preventScrollReset className="font-semibold text-brand-700 underline">
        {text}
      </Link>
    ) : (
      <span />
    );
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2">
      {link(pager.previous, "Previous")}
      <span aria-current="page" className="text-sm text-slate-600" data-testid={testId}>
        Page {pager.page} of {pager.pages}
      </span>
      {link(pager.next, "Next")}
    </nav>
  );
}
