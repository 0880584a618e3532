import { Link } from "@remix-run/react";

/**
 * Previous, "Page n of m" and Next under a list, the storefront's and the back office's; nothing when it has one
 * page. Plain links, so no JS is needed. A storefront list keeps the scroll where it is; a back-office list passes
 * its total, shown beside the page, and opens the next page at its top (keepScroll false).
 */
export function Pager({
  label,
  pager,
  href,
  testId,
  total,
  keepScroll = true,
}: {
  label: string;
  pager: { page: number; pages: number; previous: number | null; next: number | null };
  href: (page: number) => string;
  testId?: string;
  total?: number;
  keepScroll?: boolean;
}) {
  if (pager.pages <= 1) return null;
  const link = (page: number | null, text: string) =>
    page ? (
      <Link to={href(page)} preventScrollReset={keepScroll} className="font-semibold text-brand-700 underline">
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
        {total === undefined ? "" : ` (${total})`}
      </span>
      {link(pager.next, "Next")}
    </nav>
  );
}
