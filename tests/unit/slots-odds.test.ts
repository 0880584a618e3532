import { describe, expect, it } from "vitest";
import {
  REEL_STOPS,
  SLOT_DISCOUNTS,
  SLOT_SYMBOLS,
  type SlotOutcome,
  outcomeOf,
  slotOdds,
  symbolAtStop,
} from "../../contract/slots";
import { type RandomInt, drawStops, scoreStops, spinsOn } from "../../api/services/coupons/daily-slots";

/** mulberry32: a small seeded generator, so a failure here can be replayed exactly. */
function seededRandom(seed: number): RandomInt {
  let state = seed >>> 0;
  return (max) => {
    state = (state + 0x6d2b79f5) >>> 0;
    let t = state;
    t = Math.imul(t ^ (t >>> 15), t | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return Math.floor((((t ^ (t >>> 14)) >>> 0) / 4294967296) * max);
  };
}

describe("the reel table", () => {
  it("has 12 symbols whose weights fill the 128 stops, each symbol on as many stops as its weight", () => {
    expect(SLOT_SYMBOLS).toHaveLength(12);
    expect(SLOT_SYMBOLS.reduce((sum, symbol) => sum + symbol.weight, 0)).toBe(REEL_STOPS);
    const stopsPerSymbol = new Map<string, number>();
    for (let stop = 0; stop < REEL_STOPS; stop++) {
      const id = symbolAtStop(stop).id;
      stopsPerSymbol.set(id, (stopsPerSymbol.get(id) ?? 0) + 1);
    }
    for (const symbol of SLOT_SYMBOLS) expect(stopsPerSymbol.get(symbol.id)).toBe(symbol.weight);
    expect(() => symbolAtStop(REEL_STOPS)).toThrow(RangeError);
    expect(() => symbolAtStop(-1)).toThrow(RangeError);
  });

  it("scores three equal 30%, exactly two equal 15%, all different 10%", () => {
    expect(outcomeOf(["seven", "seven", "seven"])).toBe("jackpot");
    expect(outcomeOf(["cherry", "bell", "cherry"])).toBe("pair");
    expect(outcomeOf(["cherry", "bell", "star"])).toBe("none");
    expect(SLOT_DISCOUNTS).toEqual({ jackpot: 30, pair: 15, none: 10 });
    // Stops 0-19 are cherries, 125-127 sevens.
    expect(scoreStops([0, 19, 5])).toEqual({
      symbols: ["cherry", "cherry", "cherry"],
      outcome: "jackpot",
      discount: 30,
    });
    expect(scoreStops([127, 0, 126])).toMatchObject({ outcome: "pair", discount: 15 });
  });

  it("gives the expected discount documented in ADR 022 (11.62%), computed from the weights", () => {
    const odds = slotOdds();
    expect(odds.jackpot).toBeCloseTo(25_802 / 2_097_152, 12);
    expect(odds.pair).toBeCloseTo(576_930 / 2_097_152, 12);
    expect(odds.none).toBeCloseTo(1_494_420 / 2_097_152, 12);
    expect(odds.expectedDiscount.toFixed(2)).toBe("11.62");
  });
});

describe("drawing spins", () => {
  it("draws each reel uniformly among the stops with crypto randomness by default", () => {
    for (let index = 0; index < 200; index++) {
      const stops = drawStops();
      expect(stops).toHaveLength(3);
      for (const stop of stops) expect(Number.isInteger(stop) && stop >= 0 && stop < REEL_STOPS).toBe(true);
    }
  });

  it("over 300,000 seeded spins, every outcome and every symbol comes up as often as the weights say", () => {
    const spins = 300_000;
    const random = seededRandom(20261123);
    const outcomes: Record<SlotOutcome, number> = { jackpot: 0, pair: 0, none: 0 };
    const symbols = new Map<string, number>();
    let discountSum = 0;
    for (let index = 0; index < spins; index++) {
      const result = scoreStops(drawStops(random));
      outcomes[result.outcome]++;
      discountSum += result.discount;
      for (const id of result.symbols) symbols.set(id, (symbols.get(id) ?? 0) + 1);
    }
    // Within five standard deviations of the exact chance: a fair draw fails this about once in 3.5 million runs.
    const withinTolerance = (count: number, trials: number, chance: number) => {
      const tolerance = 5 * Math.sqrt((chance * (1 - chance)) / trials);
      expect(Math.abs(count / trials - chance)).toBeLessThan(tolerance);
    };
    const odds = slotOdds();
    withinTolerance(outcomes.jackpot, spins, odds.jackpot);
    withinTolerance(outcomes.pair, spins, odds.pair);
    withinTolerance(outcomes.none, spins, odds.none);
    for (const symbol of SLOT_SYMBOLS)
      withinTolerance(symbols.get(symbol.id) ?? 0, spins * 3, symbol.weight / REEL_STOPS);
    expect(discountSum / spins).toBeCloseTo(odds.expectedDiscount, 1);
  });
});

describe("spin accrual", () => {
  it("holds one spin per UTC day since counted_from, never more than 3 and never below 0", () => {
    expect(spinsOn("2026-11-23", "2026-11-22")).toBe(1);
    expect(spinsOn("2026-11-23", "2026-11-23")).toBe(0);
    expect(spinsOn("2026-11-23", "2026-11-21")).toBe(2);
    expect(spinsOn("2026-11-23", "2026-11-01")).toBe(3);
    expect(spinsOn("2026-11-23", "2026-11-25")).toBe(0);
    expect(spinsOn("2027-03-01", "2027-02-28")).toBe(1);
  });
});
