import { createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import { processConfiguration } from "../../api/config";

/*
 * remix-toast's default cookie is unsigned and never Secure; ours is signed with SESSION_SECRET.
 * Built on first use so that importing this module never reads the environment.
 */
let toastUtils: ReturnType<typeof createToastUtilsWithCustomSession> | undefined;

function utils() {
  if (!toastUtils) {
    const config = processConfiguration();
    toastUtils = createToastUtilsWithCustomSession(
      createCookieSessionStorage({
        cookie: {
          name: "toast",
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: config.publicUrl.startsWith("https://"),
          secrets: config.sessionSecrets,
        },
      }),
    );
  }
  return toastUtils;
}

export type Toast = {
  id: string;
  message: string;
  description?: string;
  type: "info" | "success" | "warning" | "error";
};

/** The flash toast of this request, and the header that clears it (only when there was one to clear). */
export async function readToast(request: Request): Promise<{ toast: Toast | undefined; headers: Headers | undefined }> {
  if (!/(?:^|;\s*)toast=/.test(request.headers.get("cookie") ?? "")) return { toast: undefined, headers: undefined };
  const { toast, headers } = await utils().getToast(request);
  // A fresh id lets the client show the same message twice in a row.
  return { toast: toast && { ...toast, id: crypto.randomUUID() }, headers };
}

type RedirectWithToast = (url: string, message: string, init?: ResponseInit) => Promise<Response>;

export const redirectWithSuccess: RedirectWithToast = (url, message, init) =>
  utils().redirectWithSuccess(url, message, init);
export const redirectWithError: RedirectWithToast = (url, message, init) =>
  utils().redirectWithError(url, message, init);
export const redirectWithInfo: RedirectWithToast = (url, message, init) => utils().redirectWithInfo(url, message, init);
export const redirectWithWarning: RedirectWithToast = (url, message, init) =>
  utils().redirectWithWarning(url, message, init);
