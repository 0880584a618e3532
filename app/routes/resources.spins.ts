import type { LoaderFunctionArgs } from "@remix-run/node";
import { requireUser } from "~/lib/session.server";
import { readSpinBalance } from "~/lib/slots.server";

/** Polled by the dashboard's slot-machine badge, so the browser never calls /v1 itself. */
export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const { spinsAvailable } = await readSpinBalance(context, request);
  return { spinsAvailable };
}
