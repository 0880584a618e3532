import type { ActionFunctionArgs } from "@remix-run/node";
import { keyGenerateSchema } from "~/routes/admin.keys/keys-schemas";
import { requireStaff } from "~/lib/admin.server";
import { generateInput, generateKeys, keysCsv } from "~/routes/admin.keys/keys.server";
import { fileDownload } from "~/lib/download.server";
import { formAction } from "~/lib/form-action.server";

/*
 * "Generate and download CSV" on /admin/keys posts here (the button's formaction): the same form, answered
 * with the new batch as a CSV attachment, the only time its codes leave the server. A refusal goes back to
 * the page with the reason in a toast.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "keys");
  return formAction(await request.formData(), {
    schema: keyGenerateSchema,
    toast: { context, to: "/admin/keys" },
    call: (value) => generateKeys(context, request, generateInput(value)),
    done: ({ payload }) =>
      fileDownload(keysCsv(payload), { name: `redeem-keys-${payload.batchId}.csv`, type: "text/csv" }),
  });
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
