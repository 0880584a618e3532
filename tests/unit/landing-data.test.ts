import { describe, expect, it } from "vitest";
import { announcementKey, featuredProducts } from "../../app/lib/landing-data.server";
import type { Product } from "../../app/lib/catalogue.server";

const product = (id: string, categoryIds: string[], totalStock: number, minPrice = 5): Product => ({
  _id: id,
  title: `Product ${id}`,
  label: "",
  subtitle: "",
  picture: "",
  description: "",
  totalStock,
  minPrice,
  minQuantity: 1,
  maxQuantity: null,
  categoryIds,
  fullFillmode: "auto",
  rating: { average: 0, count: 0 },
});
const categories = [
  { _id: "streaming", name: "Streaming" },
  { _id: "music", name: "Music" },
  { _id: "gaming", name: "Gaming" },
];

describe("featuredProducts", () => {
  it("takes one product per category, preferring those in stock", () => {
    const products = [
      product("s1", ["streaming"], 0),
      product("s2", ["streaming"], 4),
      product("s3", ["streaming"], 9),
      product("m1", ["music"], 2),
      product("g1", ["gaming"], 1),
    ];
    expect(featuredProducts(products, categories, 3).map((picked) => picked._id)).toEqual(["s2", "m1", "g1"]);
  });

  it("fills up from the rest and never shows an unpriced product", () => {
    const products = [
      product("free", ["music"], 5, 0),
      product("s1", ["streaming"], 3),
      product("s2", ["streaming"], 0),
    ];
    expect(featuredProducts(products, categories, 3).map((picked) => picked._id)).toEqual(["s1", "s2"]);
    expect(featuredProducts([], categories, 3)).toEqual([]);
  });
});

describe("announcementKey", () => {
  it("is stable for a text and changes with it", () => {
    expect(announcementKey("Ethically sourced")).toMatch(/^[a-f0-9]{16}$/);
    expect(announcementKey("Ethically sourced")).toBe(announcementKey("Ethically sourced"));
    expect(announcementKey("Ethically sourced")).not.toBe(announcementKey("New stock"));
  });
});
