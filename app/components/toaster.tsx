import { useEffect, useState } from "react";

export type ToastView = {
  id: string;
  message: string;
  description?: string;
  type: "info" | "success" | "warning" | "error";
};

const TOAST_LIFETIME_MS = 5_000;

const toneByType: Record<ToastView["type"], string> = {
  info: "border-sky-300 bg-sky-50 text-sky-900",
  success: "border-emerald-300 bg-emerald-50 text-emerald-900",
  warning: "border-amber-300 bg-amber-50 text-amber-900",
  error: "border-red-300 bg-red-50 text-red-900",
};

/**
 * The flash toast, rendered on the server: at the top right below the header on a wide screen, at the bottom on
 * a phone, where it covers none of the header's links. Its close control is a <details> summary, so it
 * closes without JS too; after 5 s it fades out, by a CSS animation (app.css, so with JS off too) and with JS
 * by removing it. `inline` places it in the flow instead: every RouteDialog shows the toast inside itself, and
 * a page that shows credentials at its top (page-toast.tsx), and the floating one hides then (app.css), so a
 * refusal never covers the dialog's own buttons and a toast never covers a credential.
 */
export function Toaster({
  toast,
  inline = false,
  className = "",
}: {
  toast: ToastView | undefined;
  inline?: boolean;
  className?: string;
}) {
  const [dismissedId, setDismissedId] = useState<string>();

  useEffect(() => {
    if (!toast) return;
    const timer = setTimeout(() => setDismissedId(toast.id), TOAST_LIFETIME_MS);
    return () => clearTimeout(timer);
  }, [toast]);

  const visible = toast && dismissedId !== toast.id ? toast : undefined;
  const placement = inline
    ? `inline-toast flex flex-col ${className}`
    : "floating-toast pointer-events-none fixed inset-x-4 bottom-4 z-[60] flex flex-col gap-2 sm:inset-x-auto sm:top-20 sm:right-4 sm:bottom-auto sm:w-80";
  return (
    <div aria-live="polite" className={placement}>
      {visible && (
        <details
          key={visible.id}
          open
          data-toast-type={visible.type}
          className={`toast pointer-events-auto relative rounded-lg border p-4 pr-10 shadow-lg [&:not([open])]:hidden ${
            toneByType[visible.type]
          }`}
        >
          <summary
            aria-label="Close notification"
            className="absolute top-2 right-2 cursor-pointer list-none rounded px-2 text-lg leading-none opacity-70 hover:opacity-100 [&::-webkit-details-marker]:hidden"
          >
            ×
          </summary>
          <div role={visible.type === "error" ? "alert" : "status"}>
            <p className="font-semibold">{visible.message}</p>
            {visible.description && <p className="text-sm">{visible.description}</p>}
          </div>
        </details>
      )}
    </div>
  );
}
