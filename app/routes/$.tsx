import type { MetaFunction } from "@remix-run/node";
import { NotFoundScreen } from "~/components/error-screens";

export const meta: MetaFunction = () => [{ title: "Page not found | Store" }];

/** Any path no other route claims: the not-found page, with status 404. */
export async function loader() {
  throw new Response("Not found", { status: 404 });
}

export default function NotFoundRoute() {
  return <NotFoundScreen />;
}

export function ErrorBoundary() {
  return <NotFoundScreen />;
}
