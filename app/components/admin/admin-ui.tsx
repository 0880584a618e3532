import type { ReactNode } from "react";

/* The pieces the back office's pages share: a page heading, a table that scrolls sideways on a phone, a time
 * (AdminList in admin-list.tsx puts them together with the Pager of components/pager.tsx into a list). */

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

const when = new Intl.DateTimeFormat("en-US", { dateStyle: "medium", timeStyle: "short", timeZone: "UTC" });
export function AdminTime({ iso }: { iso: string }) {
  return <time dateTime={iso}>{when.format(new Date(iso))} UTC</time>;
}
