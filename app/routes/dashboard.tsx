import { type LoaderFunctionArgs, type MetaFunction } from "@remix-run/node";
import { Link, useLoaderData } from "@remix-run/react";
import { GeneralErrorBoundary } from "~/components/error-screens";
import { formatUsd } from "~/lib/money";
import { requireProfile } from "~/lib/session.server";

export const meta: MetaFunction = () => [{ title: "Dashboard | Store" }];

/* A first dashboard: the greeting and the profile's figures; orders, quick access and slots come later. */

export async function loader({ request, context }: LoaderFunctionArgs) {
  return { profile: await requireProfile(request, context) };
}

const memberSince = new Intl.DateTimeFormat("en-US", {
  year: "numeric",
  month: "long",
  day: "numeric",
  timeZone: "UTC",
});

export default function DashboardPage() {
  const { profile } = useLoaderData<typeof loader>();
  const figures = [
    { label: "Balance", value: formatUsd(profile.balance) },
    { label: "Orders", value: String(profile.orders) },
    { label: "Tickets", value: String(profile.tickets) },
  ];
  return (
    <div className="mx-auto flex max-w-5xl flex-col gap-8 px-4 py-10">
      <header>
        <h1 className="text-3xl font-bold">Hello, {profile.username}!</h1>
        <p className="text-slate-600">
          Signed in as {profile.email} · member since {memberSince.format(new Date(profile.created))}
        </p>
      </header>
      <dl className="grid gap-4 sm:grid-cols-3">
        {figures.map((figure) => (
          <div key={figure.label} className="rounded-xl border border-slate-200 bg-white p-5 shadow-sm">
            <dt className="text-sm font-medium text-slate-600">{figure.label}</dt>
            <dd className="text-2xl font-bold" data-testid={`dashboard-${figure.label.toLowerCase()}`}>
              {figure.value}
            </dd>
          </div>
        ))}
      </dl>
      <nav aria-label="Quick links" className="flex flex-wrap gap-3">
        <Link to="/shop" className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
          Go to the shop
        </Link>
        <Link
          to="/settings"
          className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-100"
        >
          Settings
        </Link>
      </nav>
    </div>
  );
}

export function ErrorBoundary() {
  return <GeneralErrorBoundary />;
}
