import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NotFoundScreen } from "~/components/error-screens";
import { notFoundMeta } from "~/components/legal/not-found-meta";
import { requireAnonymous } from "~/lib/session.server";

export const meta: MetaFunction = () => notFoundMeta();

/** Any path no other route claims: the not-found page (404), or the dashboard for a signed-in user. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireAnonymous(request, context);
  throw new Response("Not found", { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
