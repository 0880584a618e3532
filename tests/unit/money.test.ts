import { describe, expect, it } from "vitest";
import { centsToUsd, usdToCents } from "../../contract/money";

describe("money conversion", () => {
  it("turns cents into USD with at most two decimals", () => {
    expect(centsToUsd(1299)).toBe(12.99);
    expect(centsToUsd(0)).toBe(0);
    expect(centsToUsd(5)).toBe(0.05);
    expect(centsToUsd(100_000)).toBe(1000);
  });

  it("turns USD into whole cents, rounding float noise and fractions of a cent", () => {
    expect(usdToCents(12.99)).toBe(1299);
    expect(usdToCents(0.1 + 0.2)).toBe(30);
    expect(usdToCents(1.005)).toBe(101);
    expect(usdToCents(19.999)).toBe(2000);
    expect(usdToCents(0)).toBe(0);
  });

  it("round-trips every cent amount", () => {
    for (let cents = 0; cents <= 20_000; cents += 7) {
      expect(usdToCents(centsToUsd(cents))).toBe(cents);
    }
  });
});
