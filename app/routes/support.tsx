import { type LoaderFunctionArgs, redirect } from "@remix-run/node";
import { getCurrentUser } from "~/lib/session.server";

/*
 * Support is a ticket, and tickets need an account: a signed-in customer goes to /tickets; anyone
 * else to the FAQ's contact section, which explains that and links to /login. Temporary (302).
 */
export async function loader({ request, context }: LoaderFunctionArgs) {
  const user = await getCurrentUser(request, context);
  return redirect(user ? "/tickets" : "/faqs#contact", 302);
}
