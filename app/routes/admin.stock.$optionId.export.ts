import type { ActionFunctionArgs } from "@remix-run/node";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import { requireStaff } from "~/lib/admin.server";
import { exportStock } from "~/lib/admin-stock.server";
import { redirectWithError } from "~/lib/toast.server";

/*
 * The unsold credentials of an option as a .txt download (`username:password` a line), posted by a plain
 * form so it works without JavaScript; the API audits each export.
 */

export async function action({ request, context, params }: ActionFunctionArgs) {
  await requireStaff(request, context, "catalogue");
  const optionId = params.optionId ?? "";
  if (!PUBLIC_ID_PATTERN.test(optionId)) throw new Response("Not found", { status: 404 });
  const answer = await exportStock(context, request, optionId);
  if (!answer.ok) {
    if (answer.status === 404) throw new Response("Not found", { status: 404 });
    return redirectWithError(context, `/admin/stock/${optionId}`, answer.message);
  }
  return new Response(answer.payload.text, {
    headers: {
      "content-type": "text/plain; charset=utf-8",
      "content-disposition": `attachment; filename="${answer.payload.filename}"`,
      "cache-control": "no-store",
    },
  });
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
