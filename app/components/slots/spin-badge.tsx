import { Link, useFetcher } from "@remix-run/react";
import { useEffect } from "react";
import type { loader } from "~/routes/resources.spins";
import { SlotMachineIcon } from "./symbols";

/** Spec section 7: the spin count is polled every 60 s. */
export const SPIN_BADGE_REFRESH_MS = 60_000;

/**
 * The dashboard's slot-machine icon: a link to the game with the spins available in a badge. The count comes
 * with the page; with JS it refreshes every minute, so a spin that accrues at midnight shows up.
 */
export function SpinBadge({ spinsAvailable }: { spinsAvailable: number }) {
  const fetcher = useFetcher<typeof loader>();
  const load = fetcher.load;
  useEffect(() => {
    const refresh = setInterval(() => load("/resources/spins"), SPIN_BADGE_REFRESH_MS);
    return () => clearInterval(refresh);
  }, [load]);
  const spins = fetcher.data?.spinsAvailable ?? spinsAvailable;
  return (
    <Link
      to="/slots"
      aria-label={`Lucky Slots: ${spins} spin${spins === 1 ? "" : "s"} available`}
      className="relative inline-flex h-14 w-14 shrink-0 items-center justify-center rounded-2xl border border-amber-300 bg-amber-50 shadow-sm hover:bg-amber-100"
      data-testid="slots-link"
    >
      <SlotMachineIcon className="h-10 w-10" />
      <span
        aria-hidden="true"
        className={`absolute -top-2 -right-2 min-w-6 rounded-full px-1.5 text-center text-sm font-bold text-white ${
          spins > 0 ? "bg-red-600" : "bg-slate-400"
        }`}
        data-testid="spin-badge"
      >
        {spins}
      </span>
    </Link>
  );
}
