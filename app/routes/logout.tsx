import { type ActionFunctionArgs, redirect } from "@remix-run/node";
import { revokeSignIn } from "~/lib/accounts.server";
import { cartFor } from "~/lib/cart.server";
import { clearedSessionCookies, headersWithCookies, sessionToken } from "~/lib/session.server";
import { redirectWithSuccess } from "~/lib/toast.server";

/** Signing out changes state, so it is a POST (the header's logout button); a visit by link just goes home. */
export function loader() {
  return redirect("/");
}

export async function action({ request, context }: ActionFunctionArgs) {
  // A token the API already dropped (401) is as good as revoked.
  if (await sessionToken(request, context)) await revokeSignIn(context, request);
  // The customer's coupon goes with the session: the guest who stays starts a cart of their own.
  const cookies = [...(await clearedSessionCookies(context)), ...(await cartFor(request, context).endGuestCart())];
  return redirectWithSuccess(context, "/login", "You have signed out", { headers: headersWithCookies(cookies) });
}
