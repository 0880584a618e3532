import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { RecentOrder } from "~/lib/recent-orders.server";

/** Timings of the spec's social-proof toast. */
export const RECENT_PURCHASES_TIMING = {
  firstAfterMs: 8_000,
  everyMs: 25_000,
  visibleMs: 9_200,
  refreshMs: 5 * 60_000,
} as const;

const MUTED_KEY = "recent-purchases-muted";

/**
 * "Someone just bought ..." toasts on the shop, a JavaScript-only nicety: nothing renders on the
 * server or without JS. The bell, placed in the page's flow beside the search so it covers nothing, turns
 * them off (and on) and the choice is remembered.
 */
/**
 * The latest orders, read when `enabled` and again every few minutes. A plain fetch, not a fetcher: a failed read
 * (or one racing a navigation) means no toast, never the shop's error screen.
 */
function useRecentOrders(enabled: boolean): RecentOrder[] {
  const [orders, setOrders] = useState<RecentOrder[]>([]);
  useEffect(() => {
    if (!enabled) return;
    let stopped = false;
    const load = async () => {
      try {
        const response = await fetch("/resources/recent-orders", { headers: { Accept: "application/json" } });
        if (!response.ok) return;
        const body = (await response.json()) as { orders: RecentOrder[] };
        if (!stopped) setOrders(body.orders);
      } catch {
        // Offline or refused: the last list stays, and the next refresh tries again.
      }
    };
    void load();
    const refresh = setInterval(load, RECENT_PURCHASES_TIMING.refreshMs);
    return () => {
      stopped = true;
      clearInterval(refresh);
    };
  }, [enabled]);
  return orders;
}

export default function RecentPurchases() {
  const hydrated = useHydrated();
  // A click's choice for this page; before any, the one saved in the browser.
  const [mutedByClick, setMutedByClick] = useState<boolean | null>(null);
  // null until hydration: nothing shows in the server's HTML or without JS.
  const muted = hydrated ? (mutedByClick ?? readMuted()) : null;
  const [shown, setShown] = useState(-1);
  const orders = useRecentOrders(muted === false);

  const count = orders.length;
  useEffect(() => {
    if (muted !== false || count === 0) return;
    let next = 0;
    let hide: ReturnType<typeof setTimeout> | undefined;
    let every: ReturnType<typeof setInterval> | undefined;
    const showNext = () => {
      setShown(next++ % count);
      hide = setTimeout(() => setShown(-1), RECENT_PURCHASES_TIMING.visibleMs);
    };
    const first = setTimeout(() => {
      showNext();
      every = setInterval(showNext, RECENT_PURCHASES_TIMING.everyMs);
    }, RECENT_PURCHASES_TIMING.firstAfterMs);
    return () => {
      clearTimeout(first);
      clearTimeout(hide);
      clearInterval(every);
      setShown(-1);
    };
  }, [muted, count]);

  if (muted === null) return null;
  const order = shown >= 0 ? orders[shown] : undefined;

  return (
    <>
      <button
        type="button"
        aria-pressed={!muted}
        aria-label={muted ? "Show recent purchases" : "Hide recent purchases"}
        title={muted ? "Show recent purchases" : "Hide recent purchases"}
        onClick={() => {
          const next = !muted;
          saveMuted(next);
          setMutedByClick(next);
        }}
        className="grid size-10 shrink-0 place-items-center rounded-lg border border-slate-300 bg-white text-slate-700 hover:bg-slate-100"
      >
        <BellIcon muted={muted} />
      </button>
      {/* The toast floats over the page, but lets taps through to whatever is under it. */}
      <div
        role="status"
        aria-live="polite"
        data-recent-orders={count}
        className="pointer-events-none fixed bottom-4 left-4 z-30 max-w-[calc(100vw-2rem)]"
      >
        {order && (
          <p className="max-w-xs rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg">
            <span className="font-semibold">{order.email}</span> bought {order.quantity} × {order.productTitle}
            <span className="mt-1 block text-xs text-slate-600">{order.timeAgo}</span>
          </p>
        )}
      </div>
    </>
  );
}

function BellIcon({ muted }: { muted: boolean }) {
  return (
    <svg
      aria-hidden="true"
      viewBox="0 0 24 24"
      className="size-5"
      fill="none"
      stroke="currentColor"
      strokeWidth="2"
      strokeLinecap="round"
      strokeLinejoin="round"
    >
      <path d="M6 16V11a6 6 0 0 1 12 0v5l1.5 2h-15L6 16z" />
      <path d="M10 20.5a2 2 0 0 0 4 0" />
      {muted && <path d="M4 4l16 16" />}
    </svg>
  );
}

function readMuted(): boolean {
  try {
    return localStorage.getItem(MUTED_KEY) === "1";
  } catch {
    return false;
  }
}

function saveMuted(muted: boolean) {
  try {
    localStorage.setItem(MUTED_KEY, muted ? "1" : "0");
  } catch {
    // Private modes may refuse storage; the choice then lasts for this page only.
  }
}
