import type { ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/lib/admin.server";
import { recordExport } from "~/lib/download.server";
import { exportCustomerData, personalDataFile } from "~/lib/privacy.server";

/*
 * A customer's data as the customer's own export, for staff answering their request (issue 29): posted by a plain
 * form so it works without JavaScript, and audited by the API.
 */

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "customersWrite");
  const customerId = params.customerId ?? "";
  return recordExport(context, {
    id: customerId,
    page: `/admin/customers/${customerId}`,
    read: () => exportCustomerData(context, request, customerId),
    file: personalDataFile,
  });
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
