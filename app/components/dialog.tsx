import { Link, useNavigate, useRouteLoaderData } from "@remix-run/react";
import { type ReactNode, useEffect, useId, useRef } from "react";
import { Toaster, type ToastView } from "./toaster";

const FOCUSABLE =
  "a[href], button:not([disabled]), input:not([disabled]), select:not([disabled]), textarea:not([disabled])";

/** With a product modal and the cart panel both open, the keyboard belongs to the one holding focus, else the top one. */
function ownsKeyboard(element: HTMLElement): boolean {
  const active = document.activeElement;
  if (active && active !== document.body && active.closest('[aria-modal="true"]')) return element.contains(active);
  const modals = document.querySelectorAll('[aria-modal="true"]');
  return modals[modals.length - 1] === element;
}

/** Tab and Shift+Tab wrap around inside the dialog instead of reaching the page behind it. */
function keepFocusInside(element: HTMLElement, event: KeyboardEvent) {
  const focusable = [...element.querySelectorAll<HTMLElement>(FOCUSABLE)].filter(
    (candidate) => candidate.tabIndex >= 0,
  );
  const first = focusable[0];
  const last = focusable[focusable.length - 1];
  if (!first || !last) return;
  const active = document.activeElement;
  if (event.shiftKey && (active === first || active === element)) {
    event.preventDefault();
    last.focus();
  } else if (!event.shiftKey && (active === last || !element.contains(active))) {
    event.preventDefault();
    first.focus();
  }
}

/**
 * A modal made of links: it is open because the URL says so, and closing is a link to the URL without it,
 * so it works without JavaScript. With JS, focus moves into it and Escape closes it.
 */
export function RouteDialog({
  title,
  closeHref,
  closeLabel = "Close",
  placement = "center",
  children,
}: {
  title: ReactNode;
  closeHref: string;
  closeLabel?: string;
  placement?: "center" | "right";
  children: ReactNode;
}) {
  const titleId = useId();
  const panel = useRef<HTMLDivElement>(null);
  const toast = useRouteLoaderData<{ toast?: ToastView }>("root")?.toast;
  const navigate = useNavigate();

  useEffect(() => {
    const previouslyFocused = document.activeElement as HTMLElement | null;
    panel.current?.focus();
    const onKeyDown = (event: KeyboardEvent) => {
      const element = panel.current;
      if (!element || !ownsKeyboard(element)) return;
      if (event.key === "Escape") navigate(closeHref, { preventScrollReset: true });
      if (event.key === "Tab") keepFocusInside(element, event);
    };
    document.addEventListener("keydown", onKeyDown);
    return () => {
      document.removeEventListener("keydown", onKeyDown);
      previouslyFocused?.focus?.();
    };
  }, [closeHref, navigate]);

  const right = placement === "right";
  return (
    <div className={`fixed inset-0 z-50 flex ${right ? "justify-end" : "p-2 sm:p-4"}`}>
      <Link
        to={closeHref}
        preventScrollReset
        tabIndex={-1}
        aria-hidden="true"
        className="absolute inset-0 bg-slate-900/50"
      />
      <div
        ref={panel}
        role="dialog"
        aria-modal="true"
        aria-labelledby={titleId}
        tabIndex={-1}
        // The panel takes focus only so that screen readers and the keyboard start inside it.
        className={`relative w-full overflow-y-auto bg-white p-6 shadow-2xl outline-none ${
          right ? "h-full max-w-md" : "m-auto max-h-full max-w-2xl rounded-2xl"
        }`}
      >
        <div className="mb-4 flex items-start justify-between gap-4">
          <h2 id={titleId} className="text-xl font-bold">
            {title}
          </h2>
          <Link
            to={closeHref}
            preventScrollReset
            aria-label={closeLabel}
            className="rounded-md px-2 text-2xl leading-none text-slate-500 hover:bg-slate-100 hover:text-ink"
          >
            ×
          </Link>
        </div>
        <Toaster toast={toast} inline className="mb-4" />
        {children}
      </div>
    </div>
  );
}
