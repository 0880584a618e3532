/*
 * The daily slots game (spec section 9): the one weighted reel table, the scoring and the spin limits.
 * The API draws and scores with it; the page draws the reels from it and shows the odds it implies.
 */

/** Every reel is the same virtual strip of 128 stops; a symbol's weight is how many stops show it. */
export const REEL_STOPS = 128;
export const REEL_COUNT = 3;

export const SLOT_SYMBOLS = [
  { id: "cherry", label: "Cherry", weight: 20 },
  { id: "lemon", label: "Lemon", weight: 18 },
  { id: "orange", label: "Orange", weight: 16 },
  { id: "peach", label: "Peach", weight: 14 },
  { id: "grapes", label: "Grapes", weight: 12 },
  { id: "melon", label: "Melon", weight: 11 },
  { id: "bell", label: "Bell", weight: 10 },
  { id: "clover", label: "Clover", weight: 8 },
  { id: "heart", label: "Heart", weight: 7 },
  { id: "star", label: "Star", weight: 5 },
  { id: "diamond", label: "Diamond", weight: 4 },
  { id: "seven", label: "Seven", weight: 3 },
] as const;
export type SlotSymbol = (typeof SLOT_SYMBOLS)[number];
export type SlotSymbolId = SlotSymbol["id"];

export type SlotOutcome = "jackpot" | "pair" | "none";
/** Percent off: three equal symbols, exactly two equal, all different. */
export const SLOT_DISCOUNTS: Record<SlotOutcome, number> = { jackpot: 30, pair: 15, none: 10 };

export const MAX_SAVED_SPINS = 3;
/** How long a won coupon can be used, in days from the spin (ADR 022). */
export const SLOT_COUPON_DAYS = 7;
/** When each reel stops after the spin button is pressed (spec section 9). */
export const REEL_STOP_MS = [3000, 3500, 4000] as const;

export const NO_SPINS_MESSAGE = "No spins available! You get 1 free spin per day (max 3 accumulated).";

export function slotSymbol(id: SlotSymbolId): SlotSymbol {
  return SLOT_SYMBOLS.find((symbol) => symbol.id === id) ?? SLOT_SYMBOLS[0];
}

/** The symbol shown at a stop (0 to 127): the symbols take consecutive runs of stops, as long as their weights. */
export function symbolAtStop(stop: number): SlotSymbol {
  if (!Number.isInteger(stop) || stop < 0 || stop >= REEL_STOPS) throw new RangeError(`no reel stop ${stop}`);
  let end = 0;
  for (const symbol of SLOT_SYMBOLS) {
    end += symbol.weight;
    if (stop < end) return symbol;
  }
  throw new RangeError("the weights do not cover every stop");
}

export function outcomeOf(symbols: readonly string[]): SlotOutcome {
  const distinct = new Set(symbols).size;
  return distinct === 1 ? "jackpot" : distinct < symbols.length ? "pair" : "none";
}

/**
 * The chance of each outcome on three independent reels, exact from the weights, and the discount a spin
 * gives on average. With W the total weight: P(three equal) = Σw³/W³, P(exactly two) = 3(W·Σw² − Σw³)/W³.
 */
export function slotOdds(weights: readonly number[] = SLOT_SYMBOLS.map((symbol) => symbol.weight)) {
  const total = weights.reduce((sum, weight) => sum + weight, 0);
  const squares = weights.reduce((sum, weight) => sum + weight ** 2, 0);
  const cubes = weights.reduce((sum, weight) => sum + weight ** 3, 0);
  const jackpot = cubes / total ** 3;
  const pair = (3 * (total * squares - cubes)) / total ** 3;
  const none = 1 - jackpot - pair;
  const expectedDiscount = jackpot * SLOT_DISCOUNTS.jackpot + pair * SLOT_DISCOUNTS.pair + none * SLOT_DISCOUNTS.none;
  return { jackpot, pair, none, expectedDiscount };
}
