import { isRouteErrorResponse, Link, useLocation, useRouteError } from "@remix-run/react";

/** A plain link to the current address: a full reload that works without JavaScript. */
function RefreshPageLink() {
  const location = useLocation();
  return (
    <a
      href={location.pathname + location.search}
      className="inline-block rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700"
    >
      Refresh Page
    </a>
  );
}

export function ErrorScreen({ title, detail }: { title: string; detail?: string }) {
  return (
    <section role="alert" className="mx-auto flex max-w-xl flex-col items-center gap-4 px-6 py-20 text-center">
      <h1 className="text-2xl font-bold">{title}</h1>
      {detail && <p className="text-slate-600">{detail}</p>}
      <RefreshPageLink />
    </section>
  );
}

export function NotFoundScreen() {
  return (
    <section className="mx-auto flex max-w-xl flex-col items-center gap-4 px-6 py-20 text-center">
      <p className="text-6xl font-black text-brand-600">404</p>
      <h1 className="text-2xl font-bold">Page not found</h1>
      <p className="text-slate-600">The page you are looking for does not exist or has moved.</p>
      <div className="flex gap-3">
        <Link to="/" className="rounded-lg border border-slate-300 px-5 py-2.5 font-semibold hover:bg-slate-100">
          Home
        </Link>
        <Link to="/shop" className="rounded-lg bg-brand-600 px-5 py-2.5 font-semibold text-white hover:bg-brand-700">
          Go to the shop
        </Link>
      </div>
    </section>
  );
}

/** The shared fallback: a not-found page for 404s, 'Something went wrong.' for everything else. */
export function GeneralErrorBoundary({ title = "Something went wrong.", detail }: { title?: string; detail?: string }) {
  const error = useRouteError();
  if (isRouteErrorResponse(error) && error.status === 404) return <NotFoundScreen />;
  if (!isRouteErrorResponse(error)) console.error(error);
  return <ErrorScreen title={title} detail={detail} />;
}
