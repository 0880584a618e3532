import { Link } from "@remix-run/react";
import type { ReactNode } from "react";

// The list's address helpers live with listQuery (ADR 048); kept here for the pages that import them from here.
export { pageFrom, pageHref } from "~/lib/list-query";

/* The pieces the back office's pages share: a page heading, a table that scrolls sideways on a phone, pager links
 * (AdminList in admin-list.tsx puts them together into a list). */

export function AdminHeading({ title, children }: { title: string; children?: ReactNode }) {
  return (
    <header className="flex flex-col gap-1">
      <h1 className="text-2xl font-bold">{title}</h1>
      {children && <p className="text-slate-600">{children}</p>}
    </header>
  );
}

/** A table that keeps its columns and scrolls inside its own frame on a narrow screen, never the page. */
export function AdminTable({ label, children }: { label: string; children: ReactNode }) {
  return (
    <div className="max-w-full overflow-x-auto rounded-xl border border-slate-200 bg-white">
      <table className="w-full min-w-[36rem] text-left text-sm">
        <caption className="sr-only">{label}</caption>
        {children}
      </table>
    </div>
  );
}

export const th = "border-b border-slate-200 bg-slate-50 px-3 py-2 font-semibold";
export const td = "border-b border-slate-100 px-3 py-2 align-top";
export const inputClass =
  "w-full min-w-0 rounded-md border border-slate-300 px-3 py-2 aria-[invalid=true]:border-red-600";
export const buttonClass = "rounded-lg bg-brand-600 px-4 py-2 font-semibold text-white hover:bg-brand-700";
export const secondaryButtonClass = "rounded-lg border border-slate-300 px-4 py-2 font-semibold hover:bg-slate-100";

/** A multi-choice field's values: one ticked box comes back from a refused post as a lone string. */
export const listOf = (value: unknown): string[] =>
  Array.isArray(value) ? value.map(String) : typeof value === "string" && value ? [value] : [];

export function Pager({
  label,
  pager,
  href,
}: {
  label: string;
  pager: { page: number; previous: number | null; next: number | null; pages: number; total: number };
  href: (page: number) => string;
}) {
  if (pager.pages <= 1) return null;
  return (
    <nav aria-label={label} className="flex items-center justify-between gap-2">
      {pager.previous ? (
        <Link to={href(pager.previous)} className="font-semibold text-brand-700 underline">
          Previous
        </Link>
      ) : (
        <span />
      )}
      <span aria-current="page" className="text-sm text-slate-600">
        Page {pager.page} of {pager.pages} ({pager.total})
      </span>
      {pager.next ? (
        <Link to={href(pager.next)} className="font-semibold text-brand-700 underline">
          Next
        </Link>
      ) : (
        <span />
      )}
    </nav>
  );
}

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export function AdminTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{when.format(new Date(iso))} UTC</time>;
}
