import type { AppLoadContext } from "@remix-run/node";
import { PUBLIC_ID_PATTERN } from "../../contract/browser/ids";
import type { ApiResult } from "./api.server";
import { redirectWithError } from "./toast.server";

/* The files the store hands out (exports, new key batches), each posted for by a plain form so it works without JS. */

/** A file the browser saves rather than shows. It holds private data, so no cache keeps a copy. */
export function fileDownload(body: string, file: { name: string; type: string; cacheControl?: string }): Response {
  return new Response(body, {
    headers: {
      "content-type": `${file.type}; charset=utf-8`,
      "content-disposition": `attachment; filename="${file.name}"`,
      "cache-control": file.cacheControl ?? "no-store",
    },
  });
}

/**
 * The export of one record: an id that cannot be one, or one the API does not know, is the 404 page; any other
 * refusal goes back to the record's page with the reason in a toast.
 */
export async function recordExport<T>(
  context: AppLoadContext,
  {
    id,
    page,
    read,
    file,
  }: { id: string; page: string; read: () => Promise<ApiResult<T>>; file: (payload: T) => Response },
) {
  if (!PUBLIC_ID_PATTERN.test(id)) throw new Response("Not found", { status: 404 });
  const answer = await read();
  if (!answer.ok) {
    if (answer.status === 404) throw new Response("Not found", { status: 404 });
    return redirectWithError(context, page, answer.message);
  }
  return file(answer.payload);
}
