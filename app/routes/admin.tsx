import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NavLink, Outlet, useLoaderData } from "@remix-run/react";
import type { StaffArea } from "../../contract/staff";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { notFoundMeta } from "~/components/legal/not-found-meta";
import { requireStaff } from "~/lib/admin.server";

// Refused (a visitor who is not staff), the back office is the not-found page, title included (ADR 041).
export const meta: MetaFunction = ({ error }) =>
  error ? notFoundMeta() : [{ title: "Back office | Store" }, { name: "robots", content: "noindex" }];

/** The back office's sections, each shown only to the roles whose area it is. */
const SECTIONS: { to: string; label: string; area: StaffArea; end?: boolean }[] = [
  { to: "/admin", label: "Overview", area: "overview", end: true },
  { to: "/admin/orders", label: "Orders", area: "ordersRead" },
  { to: "/admin/customers", label: "Customers", area: "customersRead" },
  { to: "/admin/blocklist", label: "Blocklist", area: "customersRead" },
  { to: "/admin/coupons", label: "Coupons", area: "coupons" },
  { to: "/admin/staff", label: "Staff", area: "staff" },
  { to: "/admin/catalogue", label: "Catalogue", area: "catalogue" },
  { to: "/admin/stock", label: "Stock", area: "catalogue" },
  { to: "/admin/keys", label: "Redeem keys", area: "keys" },
  { to: "/admin/audit", label: "Audit log", area: "audit" },
  { to: "/admin/security", label: "Security", area: "overview" },
  { to: "/admin/notifications", label: "Notifications", area: "notifications" },
  { to: "/admin/tickets", label: "Tickets", area: "support" },
  { to: "/admin/requests", label: "Requests", area: "support" },
  { to: "/admin/feedback", label: "Feedback", area: "support" },
  { to: "/admin/content", label: "Content", area: "content" },
  { to: "/admin/gateways", label: "Payment gateways", area: "gateways" },
];

export async function loader({ request, context }: LoaderFunctionArgs) {
  const me = await requireStaff(request, context, "overview");
  return { me, sections: SECTIONS.filter((section) => me.areas.includes(section.area)) };
}

type Section = (typeof SECTIONS)[number];

function SectionLinks({ sections }: { sections: Section[] }) {
  return (
    <nav aria-label="Back office">
      <ul className="flex flex-wrap gap-1 lg:flex-col">
        {sections.map((section) => (
          <li key={section.to}>
            <NavLink
              to={section.to}
              end={section.end}
              className="block rounded-md px-3 py-1.5 font-semibold hover:bg-slate-100 aria-[current=page]:bg-brand-600 aria-[current=page]:text-white"
            >
              {section.label}
            </NavLink>
          </li>
        ))}
      </ul>
    </nav>
  );
}

export default function AdminLayout() {
  const { me, sections } = useLoaderData<typeof loader>();
  return (
    <div className="mx-auto grid max-w-6xl grid-cols-[minmax(0,1fr)] gap-6 px-4 py-6 lg:grid-cols-[12rem_minmax(0,1fr)]">
      {/* A column on the left on wide screens: the flash toast sits at the top right. */}
      <aside className="relative flex flex-col gap-3 border-b border-slate-200 pb-3 lg:border-r lg:border-b-0 lg:pr-4">
        <p className="pr-28 font-bold lg:pr-0">
          Back office{" "}
          <span className="rounded-full bg-slate-200 px-2 py-0.5 text-xs font-semibold">{me.roleLabel}</span>
          <span className="block truncate text-sm font-normal text-slate-600" title={me.email}>
            {me.email}
          </span>
        </p>
        {/*
         * Below lg the sections fold behind "Sections" (top right), so a phone shows the page first (issue 37); a
         * <details> opens without JavaScript. Only the links exist twice, one list hidden at each width.
         */}
        <details data-admin-menu className="lg:hidden">
          <summary className="absolute top-0 right-0 cursor-pointer list-none rounded-md border border-slate-300 px-3 py-1 text-sm font-semibold">
            Sections <span aria-hidden="true">▾</span>
          </summary>
          <SectionLinks sections={sections} />
        </details>
        <div className="hidden lg:block">
          <SectionLinks sections={sections} />
        </div>
      </aside>
      <div className="min-w-0">
        <Outlet />
      </div>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
