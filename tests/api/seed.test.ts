import { revealStockRow } from "../../api/services/stock/secrets";
import { count, eq, sql } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { Database } from "../../api/db/client";
import { seedDemoData, seedWhenWanted } from "../../api/db/seed";
import { FEEDBACK_PAGE_SIZE } from "../../contract/feedback";
import { UPLOADED_PICTURE } from "../../contract/pictures";
import {
  announcements,
  categories,
  documents,
  faqs,
  feedback,
  orderProducts,
  orders,
  payments,
  paymentGateways,
  productOptions,
  products,
  socialLinks,
  stockCredentials,
  warrantyDurations,
} from "../../api/db/schema";
import { createLogger } from "../../api/logger";
import { type TestApi, createTestApi } from "../support/api";

const logger = createLogger("silent");
const tables = {
  categories,
  products,
  productOptions,
  warrantyDurations,
  stockCredentials,
  faqs,
  socialLinks,
  announcements,
  paymentGateways,
  documents,
};

async function rowCounts(db: Database) {
  const counts: Record<string, number> = {};
  for (const [name, table] of Object.entries(tables)) {
    const [row] = await db.select({ rows: count() }).from(table);
    counts[name] = row.rows;
  }
  return counts;
}

let client: TestApi;

beforeAll(async () => {
  client = await createTestApi();
});
afterAll(async () => {
  await client?.close();
});

describe("demo seed", () => {
  it("does nothing when SEED_DEMO is false", async () => {
    await seedWhenWanted(client.db, false, logger);
    expect((await rowCounts(client.db)).products).toBe(0);
  });

  it("seeds an empty database when unset, and seeding again changes nothing", async () => {
    await seedWhenWanted(client.db, undefined, logger);
    const first = await rowCounts(client.db);
    expect(first.products).toBeGreaterThanOrEqual(40);
    await seedWhenWanted(client.db, true, logger);
    await seedDemoData(client.db);
    expect(await rowCounts(client.db)).toEqual(first);
  });

  it("leaves a catalogue alone when unset and products exist", async () => {
    await client.db.delete(faqs);
    await seedWhenWanted(client.db, undefined, logger);
    expect((await rowCounts(client.db)).faqs).toBe(0);
    await seedWhenWanted(client.db, true, logger);
    expect((await rowCounts(client.db)).faqs).toBeGreaterThanOrEqual(6);
  });

  it("covers what the shop needs to show", async () => {
    const { body: categoryAnswer } = await client.get("/v1/category/read");
    expect(categoryAnswer.payload.length).toBeGreaterThanOrEqual(8);

    const { body: productAnswer } = await client.get("/v1/product/read");
    const list = productAnswer.payload as {
      _id: string;
      title: string;
      label: string;
      subtitle: string;
      picture: string;
      description: string;
      totalStock: number;
      minPrice: number;
      categoryIds: string[];
      fullFillmode: string;
    }[];
    expect(list.length).toBeGreaterThanOrEqual(40);
    for (const product of list) {
      expect(product.label, product.title).not.toBe("");
      expect(product.subtitle, product.title).not.toBe("");
      // Shaped like an upload, so the shop gives it a srcset of both widths (ADR 043).
      expect(product.picture, product.title).toMatch(UPLOADED_PICTURE);
      expect(product.minPrice, product.title).toBeGreaterThan(0);
      expect(product.categoryIds.length, product.title).toBeGreaterThan(0);
    }
    expect(new Set(list.map((product) => product.picture)).size).toBe(list.length);
    expect(list.some((product) => product.totalStock >= 10)).toBe(true);
    expect(list.some((product) => product.totalStock >= 1 && product.totalStock <= 9)).toBe(true);
    expect(list.some((product) => product.totalStock === 0)).toBe(true);
    expect(list.filter((product) => product.fullFillmode === "manual").length).toBeGreaterThanOrEqual(1);
    expect(list.filter((product) => /Semi Private/.test(product.title)).length).toBeGreaterThanOrEqual(2);
    expect(list.filter((product) => /(?<!Semi )Private/.test(product.title)).length).toBeGreaterThanOrEqual(2);

    const lengths = list.map((product) => product.description.length);
    expect(lengths.filter((length) => length > 500).length).toBeGreaterThanOrEqual(5);
    expect(lengths.filter((length) => length >= 200 && length <= 500).length).toBeGreaterThanOrEqual(5);
    expect(list.filter((product) => product.description.includes("\n\n")).length).toBeGreaterThanOrEqual(10);
  });

  it("gives options 1-3 warranty durations and stock that is plenty, low or none", async () => {
    const perOption = await client.db
      .select({
        optionId: productOptions.id,
        durations:
          sql<number>`(select count(*) from ${warrantyDurations} where ${warrantyDurations.optionId} = ${productOptions.id})`.mapWith(
            Number,
          ),
        available:
          sql<number>`(select count(*) from ${stockCredentials} where ${stockCredentials.optionId} = ${productOptions.id} and ${stockCredentials.status} = 'available')`.mapWith(
            Number,
          ),
        fulfilMode: products.fulfilMode,
      })
      .from(productOptions)
      .innerJoin(products, eq(products.id, productOptions.productId));
    for (const option of perOption) {
      expect(option.durations).toBeGreaterThanOrEqual(1);
      expect(option.durations).toBeLessThanOrEqual(3);
    }
    const auto = perOption.filter((option) => option.fulfilMode === "auto");
    expect(auto.some((option) => option.available >= 10 && option.available <= 40)).toBe(true);
    expect(auto.some((option) => option.available >= 1 && option.available <= 9)).toBe(true);
    expect(auto.some((option) => option.available === 0)).toBe(true);

    // The demo's goods are written encrypted like any (ADR 056), and open to a demo address and a long password.
    const [row] = await client.db.select().from(stockCredentials).limit(1);
    expect(row.username).toBeNull();
    const credential = revealStockRow(row);
    expect(credential.username).toMatch(/@/);
    expect(credential.password.length).toBeGreaterThanOrEqual(10);
  });

  it("seeds the content the pages read", async () => {
    const faqAnswer = await client.get("/v1/faq/read");
    expect(faqAnswer.body.payload.length).toBeGreaterThanOrEqual(6);
    const socials = await client.get("/v1/social_link/read");
    expect(socials.body.payload.map((link: { name: string }) => link.name)).toEqual(["Discord", "Telegram", "X"]);
    const announcement = await client.get("/v1/announcement/read");
    expect(announcement.body.payload.text).toMatch(/ethically sourced/i);
    const gateways = await client.get("/v1/payment_gateway/read");
    // Seeded rows are enabled; without provider keys only balance and the sandbox can take payments.
    expect(gateways.body.payload).toEqual([
      { name: "coinbase", label: "Crypto", status: false },
      { name: "shoppy", label: "Paypal", status: false },
      { name: "stripe", label: "Credit/Debit Card", status: false },
      { name: "balance", label: "Balance", status: true },
      { name: "sandbox", label: "Sandbox (test payments)", status: true },
    ]);
    // The README's demo coupon takes 10% off a guest cart.
    const [line] = await client.db
      .select({
        optionId: warrantyDurations.optionId,
        duration: warrantyDurations.durationDays,
        priceCents: warrantyDurations.priceCents,
        quantity: products.minQuantity,
      })
      .from(warrantyDurations)
      .innerJoin(productOptions, eq(productOptions.id, warrantyDurations.optionId))
      .innerJoin(products, eq(products.id, productOptions.productId))
      .limit(1);
    const { optionId, duration, quantity } = line;
    const priced = await client.post("/v1/cart/applyCouponPublic", {
      cartItems: [{ optionId, duration, quantity }],
      coupon: "welcome10",
    });
    expect(priced.status).toBe(200);
    expect(Math.round(priced.body.payload * 100)).toBe(Math.round(line.priceCents * quantity * 0.9));
    for (const name of ["terms-of-service", "privacy-policy"]) {
      const { body } = await client.get(`/v1/doc/read?name=${name}`);
      expect(body.payload).toHaveLength(1);
      expect(body.payload[0].description.split("\n\n").length).toBeGreaterThanOrEqual(4);
    }
  });

  it("seeds feedback from paid, delivered demo orders: several products, more than one page", async () => {
    const { body } = await client.post("/v1/feedback/readPublic", { page: 2 });
    expect(body.payload.pager.total).toBeGreaterThan(FEEDBACK_PAGE_SIZE * 2);
    expect(body.payload.records).toHaveLength(FEEDBACK_PAGE_SIZE);
    const { body: productAnswer } = await client.get("/v1/product/read");
    const rated = (productAnswer.payload as { rating: { count: number } }[]).filter((product) => product.rating.count);
    expect(rated.length).toBeGreaterThanOrEqual(5);
    const [{ unpaid }] = await client.db
      .select({ unpaid: count() })
      .from(feedback)
      .innerJoin(orderProducts, eq(orderProducts.id, feedback.orderProductId))
      .innerJoin(orders, eq(orders.id, orderProducts.orderId))
      .where(
        sql`${orders.status} <> 'completed' or not exists (select 1 from ${payments} where ${payments.orderId} = ${orders.id} and ${payments.status} = 'paid')`,
      );
    expect(unpaid).toBe(0);
  });
});
