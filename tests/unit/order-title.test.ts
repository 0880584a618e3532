import { describe, expect, it } from "vitest";
import { orderTitle } from "../../app/components/account/order-title";

/* Issue 26 item 4: a warranty replacement is not counted as another product in an order's name. */

const line = (title: string, isReplacement = false) => ({ title, isReplacement });

describe("orderTitle", () => {
  it("names the first product and counts the others", () => {
    expect(orderTitle({ products: [line("Melodia+")] })).toBe("Melodia+");
    expect(orderTitle({ products: [line("Melodia+"), line("Streamly")] })).toBe("Melodia+ and 1 more");
  });

  it("counts replacements apart from products", () => {
    expect(orderTitle({ products: [line("Melodia+"), line("Streamly"), line("Melodia+", true)] })).toBe(
      "Melodia+ and 1 more, 1 replacement",
    );
    expect(orderTitle({ products: [line("Melodia+"), line("Melodia+", true), line("Melodia+", true)] })).toBe(
      "Melodia+, 2 replacements",
    );
  });

  it("names an order of replacement lines only by their product, and an empty one 'Order'", () => {
    expect(orderTitle({ products: [line("Melodia+", true)] })).toBe("Melodia+, 1 replacement");
    expect(orderTitle({ products: [] })).toBe("Order");
  });
});
