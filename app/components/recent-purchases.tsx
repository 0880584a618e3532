import { useFetcher } from "@remix-run/react";
import { useEffect, useState } from "react";
import { useHydrated } from "remix-utils/use-hydrated";
import type { loader } from "~/routes/resources.recent-orders";

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
 * server or without JS. The bell turns them off (and on) and the choice is remembered.
 */
export function RecentPurchases() {
  const fetcher = useFetcher<typeof loader>();
  const load = fetcher.load;
  const hydrated = useHydrated();
  // A click's choice for this page; before any, the one saved in the browser.
  const [mutedByClick, setMutedByClick] = useState<boolean | null>(null);
  // null until hydration: nothing shows in the server's HTML or without JS.
  const muted = hydrated ? (mutedByClick ?? readMuted()) : null;
  const [shown, setShown] = useState(-1);
  const orders = fetcher.data?.orders ?? [];

  useEffect(() => {
    if (muted !== false) return;
    load("/resources/recent-orders");
    const refresh = setInterval(() => load("/resources/recent-orders"), RECENT_PURCHASES_TIMING.refreshMs);
    return () => clearInterval(refresh);
  }, [muted, load]);

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
    <div className="fixed bottom-4 left-4 z-30 flex flex-col items-start gap-2" data-recent-orders={count}>
      <div role="status" aria-live="polite">
        {order && (
          <p className="max-w-xs rounded-xl border border-slate-200 bg-white px-4 py-3 text-sm shadow-lg">
            <span className="font-semibold">{order.email}</span> bought {order.quantity} × {order.productTitle}
            <span className="mt-1 block text-xs text-slate-600">{order.timeAgo}</span>
          </p>
        )}
      </div>
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
        className="grid size-10 place-items-center rounded-full border border-slate-300 bg-white text-lg shadow"
      >
        <span aria-hidden="true">{muted ? "🔕" : "🔔"}</span>
      </button>
    </div>
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
