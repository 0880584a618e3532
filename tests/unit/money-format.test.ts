import { describe, expect, it } from "vitest";
import { formatUsd } from "~/lib/money";

describe("formatUsd", () => {
  it("always shows dollars with two decimals", () => {
    expect(formatUsd(12.5)).toBe("$12.50");
    expect(formatUsd(12.99)).toBe("$12.99");
    expect(formatUsd(0)).toBe("$0.00");
    expect(formatUsd(7)).toBe("$7.00");
  });

  it("groups thousands and rounds to cents", () => {
    expect(formatUsd(1234.5)).toBe("$1,234.50");
    expect(formatUsd(0.1 + 0.2)).toBe("$0.30");
  });
});
