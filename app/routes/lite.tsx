import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { safeRedirect } from "remix-utils/safe-redirect";
import { cookiesOf } from "~/lib/cookies.server";

/*
 * The footer's Lite mode switch (issue 18): a plain form post that sets or clears the cookie and goes back
 * to the page it came from, which then loads with or without scripts.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  const formData = await request.formData();
  const cookie = cookiesOf(context).lite;
  const setCookie = formData.get("lite") === "on" ? await cookie.serialize("1") : await cookie.clear();
  return redirect(safeRedirect(formData.get("redirectTo"), "/"), { headers: { "Set-Cookie": setCookie } });
}

/** Nothing to show here: the switch lives in the footer. */
export function loader() {
  return redirect("/");
}
