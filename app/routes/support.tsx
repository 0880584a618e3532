import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { getCurrentUser } from "~/lib/session.server";

/*
 * The product's support links (/support, and an order's Contact Support with `?orderId=`): a signed-in customer
 * goes to /tickets, anyone else to the contact form (ADR 039), the order kept. Temporary (302).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request, context);
  const orderId = new URL(request.url).searchParams.get("orderId") ?? "";
  const query = PUBLIC_ID_PATTERN.test(orderId) ? `?${new URLSearchParams({ orderId })}` : "";
  return redirect(`${user ? "/tickets" : "/contact"}${query}`, 302);
}
