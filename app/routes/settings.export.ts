import type { LoaderFunctionArgs } from "@remix-run/node";
import { ApiUnavailableError } from "~/lib/api.server";
import { personalDataFile, exportMyData } from "~/lib/privacy.server";
import { requireUser } from "~/lib/session.server";

/*
 * "Download my data" on /settings: a plain link, so it works without JavaScript. The file is the API's export
 * (GET /v1/user/export), handed on as a download.
 */

export async function loader({ request, context }: LoaderFunctionArgs) {
  await requireUser(request, context);
  const answer = await exportMyData(context, request);
  if (!answer.ok) throw new ApiUnavailableError(`/v1/user/export answered ${answer.status}`, answer.status);
  return personalDataFile(answer.payload);
}
