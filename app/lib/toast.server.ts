import { type AppLoadContext, createCookieSessionStorage } from "@remix-run/node";
import { createToastUtilsWithCustomSession } from "remix-toast";
import type { UiSettings } from "../load-context";
import { cookieSent } from "./cookies.server";

/* remix-toast's default cookie is unsigned and never Secure; ours is signed with SESSION_SECRET. */
type ToastUtils = ReturnType<typeof createToastUtilsWithCustomSession>;
const utilsBySettings = new WeakMap<UiSettings, ToastUtils>();

function utils(context: AppLoadContext): ToastUtils {
  let toastUtils = utilsBySettings.get(context.settings);
  if (!toastUtils) {
    toastUtils = createToastUtilsWithCustomSession(
      createCookieSessionStorage({
        cookie: {
          name: "toast",
          path: "/",
          httpOnly: true,
          sameSite: "lax",
          secure: context.settings.servedOverHttps,
          secrets: context.settings.sessionSecrets,
        },
      }),
    );
    utilsBySettings.set(context.settings, toastUtils);
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
export async function readToast(
  request: Request,
  context: AppLoadContext,
): Promise<{ toast: Toast | undefined; headers: Headers | undefined }> {
  if (!cookieSent(request, "toast")) return { toast: undefined, headers: undefined };
  const { toast, headers } = await utils(context).getToast(request);
  // A fresh id lets the client show the same message twice in a row.
  return { toast: toast && { ...toast, id: crypto.randomUUID() }, headers };
}

type RedirectWithToast = (
  context: AppLoadContext,
  url: string,
  message: string,
  init?: ResponseInit,
) => Promise<Response>;

export const redirectWithSuccess: RedirectWithToast = (context, url, message, init) =>
  utils(context).redirectWithSuccess(url, message, init);
export const redirectWithError: RedirectWithToast = (context, url, message, init) =>
  utils(context).redirectWithError(url, message, init);
export const redirectWithInfo: RedirectWithToast = (context, url, message, init) =>
  utils(context).redirectWithInfo(url, message, init);
export const redirectWithWarning: RedirectWithToast = (context, url, message, init) =>
  utils(context).redirectWithWarning(url, message, init);
