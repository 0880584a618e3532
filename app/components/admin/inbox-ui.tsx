import { Form, Link } from "@remix-run/react";
import { inputClass, pageFrom, pageHref, secondaryButtonClass } from "./admin-ui";

/* The filter links and search box the inbox's lists share (tickets, requests, feedback). */

export function listQueryFrom<F extends readonly string[]>(url: URL, filters: F, fallback: F[number]) {
  const asked = url.searchParams.get("filter") ?? "";
  const filter: F[number] = (filters as readonly string[]).includes(asked) ? asked : fallback;
  const search = (url.searchParams.get("search") ?? "").trim().slice(0, 200);
  return { filter, search, page: pageFrom(url) };
}

export function FilterLinks({
  label,
  pathname,
  filters,
  current,
  search,
}: {
  label: string;
  pathname: string;
  filters: { value: string; label: string }[];
  current: string;
  search: string;
}) {
  return (
    <nav aria-label={label} className="flex flex-wrap gap-2">
      {filters.map((filter) => (
        <Link
          key={filter.value}
          to={pageHref(pathname, { filter: filter.value, search }, 1)}
          aria-current={filter.value === current ? "page" : undefined}
          className="rounded-full border border-slate-300 px-3 py-1 text-sm font-semibold aria-[current=page]:border-brand-600 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
        >
          {filter.label}
        </Link>
      ))}
    </nav>
  );
}

export function SearchForm({
  id,
  label,
  filter,
  search,
  placeholder,
}: {
  id: string;
  label: string;
  filter: string;
  search: string;
  placeholder: string;
}) {
  return (
    <Form method="get" role="search" className="flex flex-col gap-2 sm:flex-row sm:items-end">
      <input type="hidden" name="filter" value={filter} />
      <div className="flex min-w-0 flex-1 flex-col gap-1">
        <label htmlFor={id} className="text-sm font-semibold">
          {label}
        </label>
        <input
          id={id}
          name="search"
          type="search"
          defaultValue={search}
          maxLength={200}
          placeholder={placeholder}
          className={inputClass}
        />
      </div>
      <button type="submit" className={secondaryButtonClass}>
        Search
      </button>
    </Form>
  );
}
