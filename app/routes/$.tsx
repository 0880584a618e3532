import type { LoaderFunctionArgs, MetaFunction } from "@remix-run/node";
import { NotFoundScreen } from "~/components/error-screens";
import { requireAnonymous } from "~/lib/session.server";
import { pageMeta } from "~/components/legal/page-meta";

export const meta: MetaFunction = () =>
  pageMeta({
    title: "Page not found | Store",
    description: "This address leads nowhere in the store. Head to the shop, look up an order or read the FAQ instead.",
  });

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
