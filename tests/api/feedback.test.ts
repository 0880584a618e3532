import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { FEEDBACK_PAGE_SIZE, REGISTER_TO_LEAVE_FEEDBACK } from "../../contract/feedback";
import { newId } from "../../api/db/ids";
import { feedback } from "../../api/db/schema";
import { FEEDBACK_MESSAGES } from "../../api/services/support/feedback";
import { type ShopTestApi, addToCart, createCustomer, createListing, createShopTestApi } from "../support/shop";

/* POST /v1/feedback/create, /readPublic and /readMine: verified buyers only, one feedback per order line. */

let client: ShopTestApi;

beforeAll(async () => {
  client = await createShopTestApi({ RATE_LIMIT_SCALE: "100" });
});
afterAll(() => client.close());

type Customer = Awaited<ReturnType<typeof createCustomer>>;

/** A customer's completed order of one unit of the listing, paid from the balance and delivered at once. */
async function buy(customer: Customer, optionId: string) {
  await addToCart(client, customer.token, optionId, 1);
  const answer = await client.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
  expect(answer.status).toBe(201);
  return answer.body.payload.orderId as string;
}

async function buyer(title = `Product ${newId().slice(0, 6)}`) {
  const listing = await createListing(client.db, { title, stock: 5, priceCents: 300 });
  const customer = await createCustomer(client.db, { balanceCents: 10_000 });
  const orderId = await buy(customer, listing.optionId);
  return { listing, customer, orderId };
}

function rate(
  customer: Customer | null,
  fields: { orderId: string; productId: string; productOptionId: string },
  extra: Record<string, unknown> = {},
) {
  return client.post(
    "/v1/feedback/create",
    { ...fields, stars: 5, message: "Works great", ...extra },
    customer ? { token: customer.token } : {},
  );
}

const readPublic = (body: Record<string, unknown> = {}) => client.post("/v1/feedback/readPublic", body);

describe("POST /v1/feedback/create", () => {
  it("takes a verified buyer's stars and message, and a second post edits the same feedback", async () => {
    const { listing, customer, orderId } = await buyer();
    const line = { orderId, productId: listing.productId, productOptionId: listing.optionId };
    const first = await rate(customer, line, { stars: 4, message: "  Fast delivery  " });
    expect(first.status).toBe(201);
    expect(first.body.message).toBe(FEEDBACK_MESSAGES.created);
    expect(first.body.payload).toMatchObject({
      stars: 4,
      message: "Fast delivery",
      product: { _id: listing.productId, title: listing.title },
    });

    const edit = await rate(customer, line, { stars: 2, message: "Stopped working" });
    expect(edit.status).toBe(200);
    expect(edit.body.message).toBe(FEEDBACK_MESSAGES.updated);
    expect(edit.body.payload._id).toBe(first.body.payload._id);
    const rows = await client.db.select().from(feedback).where(eq(feedback.productId, listing.productId));
    expect(rows).toHaveLength(1);
    expect(rows[0]).toMatchObject({ stars: 2, message: "Stopped working", userId: customer.id });

    const mine = await client.post("/v1/feedback/readMine", { orderId }, { token: customer.token });
    expect(mine.body.payload).toEqual([
      expect.objectContaining({ product: listing.productId, productOption: listing.optionId, stars: 2, hidden: false }),
    ]);
  });

  it("answers a guest 'Please Register to leave feedback' and stores nothing", async () => {
    const { listing, orderId } = await buyer();
    const answer = await rate(null, { orderId, productId: listing.productId, productOptionId: listing.optionId });
    expect(answer.status).toBe(401);
    expect(answer.body.message).toBe(REGISTER_TO_LEAVE_FEEDBACK);
    expect(await client.db.select().from(feedback).where(eq(feedback.productId, listing.productId))).toEqual([]);
  });

  it("refuses a product not bought in that order, someone else's order, an undelivered order, and unknown ids", async () => {
    const { listing, customer, orderId } = await buyer();
    const other = await createListing(client.db, { title: "Never bought", stock: 2 });
    const stranger = await createCustomer(client.db, { balanceCents: 0 });
    const line = { orderId, productId: listing.productId, productOptionId: listing.optionId };

    const notBought = await rate(customer, { orderId, productId: other.productId, productOptionId: other.optionId });
    const wrongOption = await rate(customer, { ...line, productOptionId: other.optionId });
    const foreign = await rate(stranger, line);
    const unknownOrder = await rate(customer, { ...line, orderId: newId() });
    for (const answer of [notBought, wrongOption, foreign, unknownOrder]) {
      expect(answer.status).toBe(403);
      expect(answer.body.message).toBe(FEEDBACK_MESSAGES.notReceived);
    }

    // A pending (unpaid) order has nothing delivered yet.
    await addToCart(client, customer.token, listing.optionId, 1);
    const pending = await client.post("/v1/order/create", { paymentMethod: "sandbox" }, { token: customer.token });
    expect(pending.status).toBe(201);
    const unpaid = await rate(customer, { ...line, orderId: pending.body.payload.orderId });
    expect(unpaid.status).toBe(403);

    const stored = await client.db.select().from(feedback).where(eq(feedback.userId, customer.id));
    expect(stored).toEqual([]);
    const theirs = await client.post("/v1/feedback/readMine", { orderId }, { token: stranger.token });
    expect(theirs.status).toBe(404);
  });

  it("refuses stars 0, 6, 4.5 or text, a blank or too long message, and malformed ids with 400", async () => {
    const { listing, customer, orderId } = await buyer();
    const line = { orderId, productId: listing.productId, productOptionId: listing.optionId };
    for (const bad of [
      { stars: 0 },
      { stars: 6 },
      { stars: 4.5 },
      { stars: "5" },
      { stars: undefined },
      { message: "   " },
      { message: "x".repeat(1001) },
      { orderId: "not-an-id" },
      { productId: "" },
    ]) {
      const answer = await rate(customer, line, bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
      expect(answer.body.success).toBe(false);
    }
    expect(await client.db.select().from(feedback).where(eq(feedback.userId, customer.id))).toEqual([]);
  });
});

describe("POST /v1/feedback/readPublic", () => {
  it("lists visible feedback newest first with its product, never the author, as text", async () => {
    const { listing, customer, orderId } = await buyer("Escaping Plan");
    const markup = `<script>alert("x")</script> & <b>bold</b>`;
    await rate(
      customer,
      { orderId, productId: listing.productId, productOptionId: listing.optionId },
      {
        message: markup,
        stars: 3,
      },
    );
    const answer = await readPublic({ productId: listing.productId });
    expect(answer.status).toBe(200);
    expect(answer.body.payload.records).toEqual([
      {
        _id: expect.any(String),
        stars: 3,
        message: markup,
        product: { _id: listing.productId, title: "Escaping Plan" },
        reply: null,
        createdAt: expect.any(String),
        updatedAt: expect.any(String),
      },
    ]);
    const text = JSON.stringify(answer.body);
    expect(text).not.toContain(customer.email);
    expect(text).not.toContain(customer.id);
  });

  it("hides feedback the operator hid, keeps it hidden after an edit, and leaves it out of the rating", async () => {
    const { listing, customer, orderId } = await buyer();
    const line = { orderId, productId: listing.productId, productOptionId: listing.optionId };
    await rate(customer, line, { stars: 1, message: "Spam spam" });
    await client.db.update(feedback).set({ visible: false }).where(eq(feedback.userId, customer.id));
    await rate(customer, line, { stars: 1, message: "Spam again" });

    const answer = await readPublic({ productId: listing.productId });
    expect(answer.body.payload.records).toEqual([]);
    expect(answer.body.payload.pager.total).toBe(0);
    const products = (await client.get("/v1/product/read")).body.payload as { _id: string; rating: unknown }[];
    expect(products.find((product) => product._id === listing.productId)?.rating).toEqual({ average: 0, count: 0 });
    const mine = await client.post("/v1/feedback/readMine", { orderId }, { token: customer.token });
    expect(mine.body.payload[0]).toMatchObject({ message: "Spam again", hidden: true });
  });

  it("pages, filters by product, searches, and gives each product its average and count", async () => {
    const listing = await createListing(client.db, { title: "Paged Product", stock: 40, priceCents: 100 });
    const starsGiven = [5, 4, 5, 3, 5, 4, 5, 5, 4, 5, 2, 5, 5, 4];
    for (const [index, stars] of starsGiven.entries()) {
      const customer = await createCustomer(client.db, { balanceCents: 1_000 });
      const orderId = await buy(customer, listing.optionId);
      const message = index === 7 ? "The needle in the haystack" : `Review number ${index}`;
      await rate(
        customer,
        { orderId, productId: listing.productId, productOptionId: listing.optionId },
        { stars, message },
      );
    }
    const first = await readPublic({ page: 1, sortBy: "updatedAt", productId: listing.productId });
    expect(first.body.payload.records).toHaveLength(FEEDBACK_PAGE_SIZE);
    expect(first.body.payload.records[0].message).toBe("Review number 13");
    expect(first.body.payload.pager).toEqual({ page: 1, previous: null, next: 2, total: 14, pages: 2 });
    const second = await readPublic({ page: 2, productId: listing.productId });
    expect(second.body.payload.records).toHaveLength(2);
    expect(second.body.payload.pager).toMatchObject({ page: 2, previous: 1, next: null });

    const found = await readPublic({ search: "NEEDLE in" });
    expect(found.body.payload.records.map((record: { message: string }) => record.message)).toEqual([
      "The needle in the haystack",
    ]);
    const all = await readPublic({ productId: "" });
    expect(all.body.payload.pager.total).toBeGreaterThan(14);

    const products = (await client.get("/v1/product/read")).body.payload as { _id: string; rating: unknown }[];
    const average = Math.round((starsGiven.reduce((sum, stars) => sum + stars, 0) / starsGiven.length) * 10) / 10;
    expect(products.find((product) => product._id === listing.productId)?.rating).toEqual({ average, count: 14 });
    // The product page reads the one product: the same rating, counted from its feedback only.
    const one = await client.get(`/v1/product/read/${listing.productId}`);
    expect(one.body.payload.rating).toEqual({ average, count: 14 });
  });

  it("refuses a bad page, sort or product id with 400", async () => {
    for (const bad of [
      { page: 0 },
      { page: "x" },
      { sortBy: "stars" },
      { productId: "nope" },
      { search: "x".repeat(201) },
    ]) {
      const answer = await readPublic(bad);
      expect(answer.status, JSON.stringify(bad)).toBe(400);
    }
  });
});
