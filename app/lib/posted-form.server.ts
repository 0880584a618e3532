import {
  MaxPartSizeExceededError,
  unstable_createMemoryUploadHandler,
  unstable_parseMultipartFormData,
} from "@remix-run/node";

/**
 * A posted form: a multipart one (a file may ride along) is read with each part capped at `maxPartSize`
 * while it streams, the others as plain fields. "too large" when a part went over the cap.
 */
export async function postedForm(request: Request, maxPartSize: number): Promise<FormData | "too large"> {
  if (!(request.headers.get("content-type") ?? "").startsWith("multipart/form-data")) return request.formData();
  try {
    return await unstable_parseMultipartFormData(request, unstable_createMemoryUploadHandler({ maxPartSize }));
  } catch (error) {
    if (error instanceof MaxPartSizeExceededError) return "too large";
    throw error;
  }
}
