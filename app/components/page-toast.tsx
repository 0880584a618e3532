import { useRouteLoaderData } from "@remix-run/react";
import { Toaster, type ToastView } from "./toaster";

/**
 * The flash toast in a page's flow, for pages whose content (credentials) the floating toast would cover. Apart
 * from toaster.tsx, which every page loads, so only such pages carry it.
 */
export function PageToast() {
  const toast = useRouteLoaderData<{ toast?: ToastView }>("root")?.toast;
  return <Toaster toast={toast} inline className="page-toast empty:hidden" />;
}
