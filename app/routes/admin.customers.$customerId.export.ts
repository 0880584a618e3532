import type { ActionFunctionArgs } from "@remix-run/node";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { requireStaff } from "~/lib/admin.server";
import { exportCustomerData, personalDataFile } from "~/lib/privacy.server";
import { redirectWithError } from "~/lib/toast.server";

/*
 * A customer's data as the customer's own export, for staff answering their request (issue 29): posted by a plain
 * form so it works without JavaScript, and audited by the API.
 */

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const customerId = params.customerId ?? "";
  if (!PUBLIC_ID_PATTERN.test(customerId)) throw new Response("Not found", { status: 404 });
  const answer = await exportCustomerData(context, request, customerId);
  if (!answer.ok) {
    if (answer.status === 404) throw new Response("Not found", { status: 404 });
    return redirectWithError(context, `/admin/customers/${customerId}`, answer.message);
  }
  return personalDataFile(answer.payload);
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
