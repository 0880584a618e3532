import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/client";
import { newId } from "../../api/db/ids";
import {
  announcements,
  categories,
  documents,
  faqs,
  paymentGateways,
  productCategories,
  productOptions,
  products,
  socialLinks,
  stockCredentials,
  warrantyDurations,
} from "../../api/db/schema";
import { type TestApi, createTestApi } from "../support/api";

/** A small catalogue whose figures are known, so every total below can be checked by hand. */
const ids = {
  gaming: newId(),
  music: newId(),
  streamPlus: newId(),
  streamPlusPrivate: newId(),
  streamPlusShared: newId(),
  streamPlusHidden: newId(),
  tutoring: newId(),
  tutoringSession: newId(),
  emptyProduct: newId(),
  retired: newId(),
  retiredOption: newId(),
  durationMonth: newId(),
};

function credentials(optionId: string, status: "available" | "reserved" | "delivered" | "void", howMany: number) {
  return Array.from({ length: howMany }, (_, index) => ({
    optionId,
    username: `user${index}@mail.example`,
    password: `secret-${index}`,
    status,
    orderProductId: status === "reserved" || status === "delivered" ? newId() : null,
  }));
}

async function insertCatalogue(db: Database) {
  await db.insert(categories).values([
    { id: ids.music, name: "Music", position: 2 },
    { id: ids.gaming, name: "Gaming", position: 1 },
  ]);
  await db.insert(products).values([
    {
      id: ids.streamPlus,
      title: "StreamPlus Private",
      label: "4K UHD",
      subtitle: "Your own profile",
      picture: "/images/products/streamplus.svg",
      description: "First section.\n\nSecond section.",
      minQuantity: 1,
      maxQuantity: 5,
      position: 2,
    },
    {
      id: ids.tutoring,
      title: "Tutoring Session",
      fulfilMode: "manual",
      position: 1,
    },
    { id: ids.emptyProduct, title: "Coming Soon", position: 3 },
    { id: ids.retired, title: "Retired Product", active: false, position: 0 },
  ]);
  await db.insert(productCategories).values([
    { productId: ids.streamPlus, categoryId: ids.music },
    { productId: ids.streamPlus, categoryId: ids.gaming },
    { productId: ids.tutoring, categoryId: ids.gaming },
  ]);
  await db.insert(productOptions).values([
    { id: ids.streamPlusShared, productId: ids.streamPlus, title: "Shared", position: 2 },
    { id: ids.streamPlusPrivate, productId: ids.streamPlus, title: "Private", position: 1 },
    { id: ids.streamPlusHidden, productId: ids.streamPlus, title: "Hidden", active: false, position: 3 },
    { id: ids.tutoringSession, productId: ids.tutoring, title: "One hour" },
    { id: ids.retiredOption, productId: ids.retired, title: "Old" },
  ]);
  await db.insert(warrantyDurations).values([
    { optionId: ids.streamPlusPrivate, title: "1 Year Warranty", durationDays: 365, priceCents: 4999, position: 2 },
    {
      id: ids.durationMonth,
      optionId: ids.streamPlusPrivate,
      title: "1 Month Warranty",
      durationDays: 30,
      priceCents: 699,
      position: 0,
    },
    { optionId: ids.streamPlusPrivate, title: "3 Months Warranty", durationDays: 90, priceCents: 1799, position: 1 },
    { optionId: ids.streamPlusShared, title: "1 Month Warranty", durationDays: 30, priceCents: 399 },
    // Cheaper, but on an inactive option: must not become the product's minPrice.
    { optionId: ids.streamPlusHidden, title: "1 Month Warranty", durationDays: 30, priceCents: 99 },
    { optionId: ids.tutoringSession, title: "1 Month Warranty", durationDays: 30, priceCents: 2500 },
    { optionId: ids.retiredOption, title: "1 Month Warranty", durationDays: 30, priceCents: 100 },
  ]);
  await db
    .insert(stockCredentials)
    .values([
      ...credentials(ids.streamPlusPrivate, "available", 4),
      ...credentials(ids.streamPlusPrivate, "reserved", 2),
      ...credentials(ids.streamPlusPrivate, "delivered", 3),
      ...credentials(ids.streamPlusPrivate, "void", 1),
      ...credentials(ids.streamPlusShared, "available", 7),
      ...credentials(ids.streamPlusHidden, "available", 50),
    ]);
  await db.insert(faqs).values([
    { question: "Second?", answer: "B", position: 2 },
    { question: "First?", answer: "A", position: 1 },
  ]);
  await db.insert(socialLinks).values([{ name: "Discord", link: "https://discord.example.com/x" }]);
  await db.insert(paymentGateways).values([
    { name: "stripe", label: "Credit/Debit Card", position: 2 },
    { name: "coinbase", label: "Crypto", position: 0 },
    { name: "shoppy", label: "Paypal", enabled: false, position: 1 },
  ]);
  await db.insert(documents).values([
    { name: "terms-of-service", description: "Terms.\n\nMore terms." },
    { name: "privacy-policy", description: "Privacy." },
  ]);
}

let client: TestApi;

beforeAll(async () => {
  client = await createTestApi({ prepare: (handle) => insertCatalogue(handle.db) });
});
afterAll(async () => {
  await client?.close();
});

describe("GET /v1/category/read", () => {
  it("lists categories by position", async () => {
    const { status, body } = await client.get("/v1/category/read");
    expect(status).toBe(200);
    expect(body.success).toBe(true);
    expect(body.payload).toEqual([
      { _id: ids.gaming, name: "Gaming" },
      { _id: ids.music, name: "Music" },
    ]);
  });
});

describe("GET /v1/product/read", () => {
  it("lists active products by position with stock, lowest price and categories", async () => {
    const { status, body } = await client.get("/v1/product/read");
    expect(status).toBe(200);
    expect(body.payload.map((product: { _id: string }) => product._id)).toEqual([
      ids.tutoring,
      ids.streamPlus,
      ids.emptyProduct,
    ]);
    const streamPlus = body.payload[1];
    expect(streamPlus).toEqual({
      _id: ids.streamPlus,
      title: "StreamPlus Private",
      label: "4K UHD",
      subtitle: "Your own profile",
      picture: "/images/products/streamplus.svg",
      description: "First section.\n\nSecond section.",
      // 4 available on Private + 7 on Shared; reserved, delivered, void and the inactive option's stock do not count.
      totalStock: 11,
      minPrice: 3.99,
      minQuantity: 1,
      maxQuantity: 5,
      categoryIds: [ids.gaming, ids.music],
      fullFillmode: "auto",
      // No feedback yet; tests/api/feedback.test.ts covers the figures.
      rating: { average: 0, count: 0 },
    });
  });

  it("reports manual products as in stock and products without options as empty", async () => {
    const { body } = await client.get("/v1/product/read");
    const [tutoring, , empty] = body.payload;
    expect(tutoring).toMatchObject({ totalStock: 999, minPrice: 25, maxQuantity: null, fullFillmode: "manual" });
    expect(empty).toMatchObject({ totalStock: 0, minPrice: 0, categoryIds: [] });
  });
});

describe("GET /v1/product/shelves", () => {
  const card = (product: { _id: string; title: string; label: string; picture: string }) => {
    const { _id, title, label, picture } = product;
    return { _id, title, label, picture };
  };

  it("shelves every category with a product by position, its products by position, and the rest under Other", async () => {
    const { status, body } = await client.get("/v1/product/shelves");
    expect(status).toBe(200);
    const listed = (await client.get("/v1/product/read")).body.payload as { _id: string; title: string }[];
    const cardOf = (id: string) => {
      const product = listed.find((candidate) => candidate._id === id)! as Parameters<typeof card>[0] & {
        totalStock: number;
        minPrice: number;
      };
      return { ...card(product), totalStock: product.totalStock, minPrice: product.minPrice };
    };
    expect(body.payload).toEqual({
      categories: [
        { _id: ids.gaming, name: "Gaming" },
        { _id: ids.music, name: "Music" },
      ],
      category: "",
      shelves: [
        { _id: ids.gaming, name: "Gaming", total: 2, products: [cardOf(ids.tutoring), cardOf(ids.streamPlus)] },
        { _id: ids.music, name: "Music", total: 1, products: [cardOf(ids.streamPlus)] },
        { _id: "other", name: "Other", total: 1, products: [cardOf(ids.emptyProduct)] },
      ],
    });
  });

  it("shows the first perShelf cards of each shelf with its total, or one category whole", async () => {
    const firsts = (await client.get("/v1/product/shelves?perShelf=1")).body.payload;
    expect(
      firsts.shelves.map((shelf: { total: number; products: unknown[] }) => [shelf.total, shelf.products.length]),
    ).toEqual([
      [2, 1],
      [1, 1],
      [1, 1],
    ]);
    const gaming = (await client.get(`/v1/product/shelves?perShelf=1&category=${ids.gaming}`)).body.payload;
    expect(gaming.category).toBe(ids.gaming);
    expect(gaming.shelves.map((shelf: { _id: string }) => shelf._id)).toEqual([ids.gaming]);
    expect(gaming.shelves[0].products.map((product: { _id: string }) => product._id)).toEqual([
      ids.tutoring,
      ids.streamPlus,
    ]);
  });

  it("matches the search anywhere in a title in any case, % and _ as characters, and ignores an unknown category", async () => {
    const stream = (await client.get("/v1/product/shelves?search=tREAMp")).body.payload;
    expect(stream.categories).toHaveLength(2);
    expect(stream.shelves.map((shelf: { _id: string; total: number }) => [shelf._id, shelf.total])).toEqual([
      [ids.gaming, 1],
      [ids.music, 1],
    ]);
    expect((await client.get("/v1/product/shelves?search=%25")).body.payload.shelves).toEqual([]);
    const unknown = (await client.get(`/v1/product/shelves?category=${ids.retired}`)).body.payload;
    expect(unknown.category).toBe("");
    expect(unknown.shelves).toHaveLength(3);
  });
});

describe("GET /v1/product/read/:productId", () => {
  it("answers one active product exactly as the list gives it", async () => {
    const list = (await client.get("/v1/product/read")).body.payload as { _id: string }[];
    for (const listed of list) {
      const { status, body } = await client.get(`/v1/product/read/${listed._id}`);
      expect(status).toBe(200);
      expect(body.payload).toEqual(listed);
    }
  });

  it("answers 400 for a malformed id and 404 for an unknown or inactive product", async () => {
    const malformed = await client.get("/v1/product/read/abc");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, message: "Invalid product id" });
    for (const unknown of [newId(), ids.retired]) {
      const { status, body } = await client.get(`/v1/product/read/${unknown}`);
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, message: "Product not found" });
    }
  });
});

describe("GET /v1/product/option/read/:productId", () => {
  it("lists active options with available stock and durations in order", async () => {
    const { status, body } = await client.get(`/v1/product/option/read/${ids.streamPlus}`);
    expect(status).toBe(200);
    expect(body.payload).toHaveLength(2);
    const [privateOption, sharedOption] = body.payload;
    expect(privateOption).toMatchObject({ _id: ids.streamPlusPrivate, title: "Private", availableStock: 4 });
    expect(privateOption.subOptions).toEqual([
      { _id: ids.durationMonth, title: "1 Month Warranty", duration: 30, price: 6.99 },
      { _id: expect.any(String), title: "3 Months Warranty", duration: 90, price: 17.99 },
      { _id: expect.any(String), title: "1 Year Warranty", duration: 365, price: 49.99 },
    ]);
    expect(sharedOption).toMatchObject({ _id: ids.streamPlusShared, availableStock: 7 });
    expect(sharedOption.subOptions).toEqual([
      { _id: expect.any(String), title: "1 Month Warranty", duration: 30, price: 3.99 },
    ]);
  });

  it("gives manual options a stock of 999", async () => {
    const { body } = await client.get(`/v1/product/option/read/${ids.tutoring}`);
    expect(body.payload).toEqual([expect.objectContaining({ _id: ids.tutoringSession, availableStock: 999 })]);
  });

  it("answers 400 for a malformed id and 404 for an unknown or inactive product", async () => {
    for (const malformed of ["abc", "x".repeat(23), "%27%3B--aaaaaaaaaaaaaaaaa"]) {
      const { status, body } = await client.get(`/v1/product/option/read/${malformed}`);
      expect(status).toBe(400);
      expect(body).toMatchObject({ success: false, message: "Invalid product id" });
    }
    for (const unknown of [newId(), ids.retired]) {
      const { status, body } = await client.get(`/v1/product/option/read/${unknown}`);
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, message: "Product not found" });
    }
  });
});

describe("GET /v1/product/option/readOne/:optionId", () => {
  it("returns the option with its product", async () => {
    const { status, body } = await client.get(`/v1/product/option/readOne/${ids.streamPlusShared}`);
    expect(status).toBe(200);
    expect(body.payload).toEqual({
      _id: ids.streamPlusShared,
      title: "Shared",
      availableStock: 7,
      subOptions: [{ _id: expect.any(String), title: "1 Month Warranty", duration: 30, price: 3.99 }],
      product: {
        _id: ids.streamPlus,
        title: "StreamPlus Private",
        picture: "/images/products/streamplus.svg",
        minQuantity: 1,
        maxQuantity: 5,
      },
    });
  });

  it("answers 400 for a malformed id and 404 for unknown, inactive or retired options", async () => {
    const malformed = await client.get("/v1/product/option/readOne/not-an-id");
    expect(malformed.status).toBe(400);
    expect(malformed.body).toMatchObject({ success: false, message: "Invalid option id" });
    for (const unknown of [newId(), ids.streamPlusHidden, ids.retiredOption]) {
      const { status, body } = await client.get(`/v1/product/option/readOne/${unknown}`);
      expect(status).toBe(404);
      expect(body).toEqual({ success: false, message: "Option not found" });
    }
  });
});

describe("content endpoints", () => {
  it("answers null when no announcement is active, then the newest active one", async () => {
    expect((await client.get("/v1/announcement/read")).body).toMatchObject({ success: true, payload: null });
    await client.db.insert(announcements).values([
      { text: "Old news", createdAt: new Date("2024-01-01T00:00:00Z") },
      { text: "Hidden", active: false, createdAt: new Date("2025-06-01T00:00:00Z") },
      { text: "Ethically sourced", createdAt: new Date("2025-01-01T00:00:00Z") },
    ]);
    const { status, body } = await client.get("/v1/announcement/read");
    expect(status).toBe(200);
    expect(body.payload).toEqual({ text: "Ethically sourced" });
  });

  it("lists payment gateways, usable only when enabled and configured (none is configured here)", async () => {
    const { body } = await client.get("/v1/payment_gateway/read");
    expect(body.payload).toEqual([
      { name: "coinbase", label: "Crypto", status: false },
      { name: "shoppy", label: "Paypal", status: false },
      { name: "stripe", label: "Credit/Debit Card", status: false },
      { name: "sandbox", label: "Sandbox (test payments)", status: true },
    ]);
  });

  it("lists FAQs by position, each with `_id` and the spec's `id`, and social links", async () => {
    const faqAnswer = await client.get("/v1/faq/read");
    expect(faqAnswer.body.payload).toEqual([
      { _id: expect.any(String), id: expect.any(String), question: "First?", answer: "A" },
      { _id: expect.any(String), id: expect.any(String), question: "Second?", answer: "B" },
    ]);
    for (const entry of faqAnswer.body.payload) expect(entry.id).toBe(entry._id);
    const socialAnswer = await client.get("/v1/social_link/read");
    expect(socialAnswer.body.payload).toEqual([
      { _id: expect.any(String), name: "Discord", link: "https://discord.example.com/x" },
    ]);
  });

  it("lists documents, or one by name", async () => {
    const all = await client.get("/v1/doc/read");
    expect(all.body.payload.map((doc: { name: string }) => doc.name).sort()).toEqual([
      "privacy-policy",
      "terms-of-service",
    ]);
    const terms = await client.get("/v1/doc/read?name=terms-of-service");
    expect(terms.body.payload).toEqual([
      { _id: expect.any(String), name: "terms-of-service", description: "Terms.\n\nMore terms." },
    ]);
    const missing = await client.get("/v1/doc/read?name=refund-policy");
    expect(missing.body.payload).toEqual([]);
    const malformed = await client.get("/v1/doc/read?name=%3Cscript%3E");
    expect(malformed.status).toBe(400);
    expect(malformed.body.success).toBe(false);
  });
});

describe("GET /v1/product/page/:productId", () => {
  it("answers what the product page shows in one call: the product's page fields and the same options", async () => {
    const [page, product, options] = await Promise.all([
      client.get(`/v1/product/page/${ids.streamPlus}`),
      client.get(`/v1/product/read/${ids.streamPlus}`),
      client.get(`/v1/product/option/read/${ids.streamPlus}`),
    ]);
    expect(page.status).toBe(200);
    const { _id, title, picture, description, minQuantity, maxQuantity, rating } = product.body.payload;
    expect(page.body.payload).toEqual({
      product: { _id, title, picture, description, minQuantity, maxQuantity, rating },
      options: options.body.payload,
    });
  });

  it("answers 400 for a malformed id and 404 for an unknown or inactive product", async () => {
    expect((await client.get("/v1/product/page/abc")).status).toBe(400);
    for (const unknown of [newId(), ids.retired]) {
      const { status, body } = await client.get(`/v1/product/page/${unknown}`);
      expect(status).toBe(404);
      expect(body).toMatchObject({ success: false, message: "Product not found" });
    }
  });
});
