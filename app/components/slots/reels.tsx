import type { RefObject } from "react";
import { SlotSymbolIcon } from "./symbols";
import { REEL_STOP_MS, SLOT_SYMBOLS, type SlotSymbolId, slotSymbol } from "../../../contract/slots";

/*
 * The three reels. Each is a strip of the 12 symbols repeated LAPS times in a one-symbol window; where it rests
 * is an inline transform, so the server's HTML already shows the symbols (no JavaScript needed). With JS the
 * strips move through the Web Animations API (CSS transforms, no library): a loop while the spin is asked for,
 * then an ease-out onto exactly the symbols the server drew, stopping at 3000, 3500 and 4000 ms.
 */

const LAPS = 5;
const CELLS = SLOT_SYMBOLS.length * LAPS;
const LAP_PERCENT = 100 / LAPS;
/** One lap of the loop: 12 symbols in 400 ms, about the speed a landing starts at. */
const LOOP_MS = 400;
/** When the server answers late, the reels still take this long to come to rest, one after the other. */
const LATE_LANDING_MS = 500;

export const IDLE_SYMBOLS: SlotSymbolId[] = ["cherry", "bell", "seven"];

/** Where reel `reel` rests on `symbol`: later reels rest further down their strip, so they travel further. */
function restingPercent(symbol: SlotSymbolId, reel: number): number {
  const index = SLOT_SYMBOLS.findIndex((candidate) => candidate.id === symbol);
  return (((2 + reel) * SLOT_SYMBOLS.length + index) / CELLS) * 100;
}

const STRIP = Array.from({ length: LAPS }, () => SLOT_SYMBOLS).flat();

export type ReelStrips = RefObject<(HTMLDivElement | null)[]>;

export function Reels({ symbols, strips, busy }: { symbols: SlotSymbolId[]; strips: ReelStrips; busy: boolean }) {
  return (
    <div
      role="img"
      aria-label={
        busy ? "The reels are spinning" : `Reels: ${symbols.map((symbol) => slotSymbol(symbol).label).join(", ")}`
      }
      className="flex justify-center gap-2 rounded-2xl bg-gradient-to-b from-amber-500 to-red-600 p-3 shadow-lg sm:gap-4 sm:p-5"
      data-testid="reels"
    >
      {symbols.map((symbol, reel) => (
        <div
          key={reel}
          className="h-20 w-20 overflow-hidden rounded-xl border-4 border-amber-200 bg-white sm:h-24 sm:w-24"
          data-testid="reel"
          data-symbol={busy ? undefined : symbol}
        >
          <div
            ref={(element) => {
              if (strips.current) strips.current[reel] = element;
            }}
            style={{ transform: `translateY(-${restingPercent(symbol, reel)}%)` }}
          >
            {STRIP.map((cell, index) => (
              <div key={index} className="flex h-20 items-center justify-center sm:h-24">
                <SlotSymbolIcon id={cell.id} className="h-14 w-14 sm:h-16 sm:w-16" />
              </div>
            ))}
          </div>
        </div>
      ))}
    </div>
  );
}

function present(strips: ReelStrips): HTMLDivElement[] {
  return (strips.current ?? []).filter((strip): strip is HTMLDivElement => strip !== null);
}

/** Spins every reel in a loop until it is told where to land. */
export function loopReels(strips: ReelStrips): void {
  for (const strip of present(strips)) {
    for (const running of strip.getAnimations()) running.cancel();
    strip.animate([{ transform: "translateY(0)" }, { transform: `translateY(-${LAP_PERCENT}%)` }], {
      duration: LOOP_MS,
      iterations: Infinity,
    });
  }
}

/** Back to where the reels rested (the spin was refused). */
export function stopReels(strips: ReelStrips): void {
  for (const strip of present(strips)) for (const running of strip.getAnimations()) running.cancel();
}

/**
 * Lands each looping reel on its drawn symbol at REEL_STOP_MS after the click (`elapsedMs` ago), carrying on
 * from where its loop is; resolves when the last reel is still, where the page's own transform now holds it.
 */
export async function landReels(strips: ReelStrips, symbols: SlotSymbolId[], elapsedMs: number): Promise<void> {
  const landings = present(strips).map((strip, reel) => {
    const loop = strip.getAnimations()[0];
    const from = loop ? ((Number(loop.currentTime ?? 0) % LOOP_MS) / LOOP_MS) * LAP_PERCENT : 0;
    loop?.cancel();
    const duration = Math.max(REEL_STOP_MS[reel] - elapsedMs, LATE_LANDING_MS * (reel + 1));
    return strip.animate(
      [{ transform: `translateY(-${from}%)` }, { transform: `translateY(-${restingPercent(symbols[reel], reel)}%)` }],
      { duration, easing: "cubic-bezier(0.2, 0.6, 0.35, 1)", fill: "forwards" },
    );
  });
  await Promise.all(landings.map((landing) => landing.finished));
  // The rendered transform shows the same symbols; without the fills a later change shows at once.
  for (const landing of landings) landing.cancel();
}
