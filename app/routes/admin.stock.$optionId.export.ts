import type { ActionFunctionArgs } from "@remix-run/node";
import { requireStaff } from "~/lib/admin.server";
import { exportStock } from "~/routes/admin.stock.$optionId/stock.server";
import { fileDownload, recordExport } from "~/lib/download.server";

/*
 * The unsold credentials of an option as a .txt download (`username:password` a line), posted by a plain
 * form so it works without JavaScript; the API audits each export.
 */

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = params.optionId ?? "";
  return recordExport(context, {
    id: optionId,
    page: `/admin/stock/${optionId}`,
    read: () => exportStock(context, request, optionId),
    file: ({ text, filename }) => fileDownload(text, { name: filename, type: "text/plain" }),
  });
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
