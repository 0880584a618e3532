import { parseWithZod } from "@conform-to/zod";
import type { ActionFunctionArgs } from "@remix-run/node";
import { keyGenerateSchema } from "~/routes/admin.keys/keys-schemas";
import { requireStaff } from "~/lib/admin.server";
import { generateInput, generateKeys, keysCsv } from "~/routes/admin.keys/keys.server";
import { fileDownload } from "~/lib/download.server";
import { redirectWithError } from "~/lib/toast.server";

/*
 * "Generate and download CSV" on /admin/keys posts here (the button's formaction): the same form, answered
 * with the new batch as a CSV attachment, the only time its codes leave the server. A refusal goes back to
 * the page with the reason in a toast.
 */

export async function action({ request, context }: ActionFunctionArgs) {
  await requireStaff(request, context, "keys");
  const submission = parseWithZod(await request.formData(), { schema: keyGenerateSchema });
  if (submission.status !== "success") {
    const reasons = Object.values(submission.error ?? {}).flat();
    return redirectWithError(context, "/admin/keys", reasons[0] ?? "Check the form and try again");
  }
  const answer = await generateKeys(context, request, generateInput(submission.value));
  if (!answer.ok) return redirectWithError(context, "/admin/keys", answer.message);
  const file = { name: `redeem-keys-${answer.payload.batchId}.csv`, type: "text/csv" };
  return fileDownload(keysCsv(answer.payload), file);
}

export function loader() {
  throw new Response("Not found", { status: 404 });
}
