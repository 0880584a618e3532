import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newId } from "../../api/db/ids";
import {
  categories,
  coupons,
  emailBlocklist,
  faqs,
  feedback,
  orderProducts,
  paymentGateways,
  products,
  redeemKeys,
  requests,
  ticketMessages,
  tickets,
  users,
} from "../../api/db/schema";
import { createOtherRequest } from "../../api/services/support/requests";
import { type PageTest, createPageTest } from "../support/pages";
import { route } from "../support/routes";
import { addToCart, createCustomer, createListing } from "../support/shop";

const productPage = await route("admin.catalogue.$productId");
const cataloguePage = await route("admin.catalogue._index");
const couponPage = await route("admin.coupons.$couponId");
const customerPage = await route("admin.customers.$customerId");
const blocklistPage = await route("admin.blocklist");
const contentPage = await route("admin.content");
const gatewaysPage = await route("admin.gateways");
const keysPage = await route("admin.keys");
const keysCsvPage = await route("admin.keys.csv");
const stockExportPage = await route("admin.stock.$optionId.export");
const notificationsPage = await route("admin.notifications");
const ticketPage = await route("admin.tickets.$ticketId");
const feedbackPage = await route("admin.feedback");
const requestsPage = await route("admin.requests");

/*
 * The back office's forms (issue 41), posted as a browser without JavaScript by an owner: each proves where the
 * person lands, the message, and the change in the store, and one refusal that changes nothing.
 */

let page: PageTest;
let ownerToken: string;
beforeAll(async () => {
  page = await createPageTest();
  ownerToken = (await createCustomer(page.db, { role: "owner" })).token;
}, 180_000);
afterAll(() => page.close());

async function asOwner() {
  page.jar.clear();
  await page.signIn(ownerToken);
}

/** A customer's paid order of one line of a fresh listing. */
async function paidOrder() {
  const customer = await createCustomer(page.db, { balanceCents: 500 });
  const listing = await createListing(page.db, { stock: 1 });
  await addToCart(page.shop, customer.token, listing.optionId, 1);
  const created = await page.shop.post("/v1/order/create", { paymentMethod: "balance" }, { token: customer.token });
  expect(created.status).toBe(201);
  const orderId: string = created.body.payload.orderId;
  const [line] = await page.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId));
  return { customer, listing, orderId, line };
}

describe("the product page's form", () => {
  it("saves the product's quantities with a toast; a maximum under the minimum stays in the form", async () => {
    await asOwner();
    const listing = await createListing(page.db);
    const path = `/admin/catalogue/${listing.productId}`;
    const params = { productId: listing.productId };
    const form = { intent: "product-update", title: listing.title, fulfilMode: "auto" };
    const quantities = async () => (await page.db.select().from(products).where(eq(products.id, listing.productId)))[0];

    const backwards = await page.post(productPage, path, { ...form, minQuantity: "3", maxQuantity: "2" }, params);
    expect(backwards.status).toBe(400);
    expect(backwards.data.result.error.maxQuantity).toEqual([expect.any(String)]);
    expect(await quantities()).toMatchObject({ minQuantity: 1, maxQuantity: null });

    const saved = await page.post(productPage, path, { ...form, minQuantity: "2", maxQuantity: "5" }, params);
    expect(saved).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect(await quantities()).toMatchObject({ minQuantity: 2, maxQuantity: 5 });
  });
});

describe("the catalogue's category form", () => {
  it("adds a category with a toast; an empty name stays in the form", async () => {
    await asOwner();
    const name = `Category ${randomBytes(3).toString("hex")}`;
    const empty = await page.post(cataloguePage, "/admin/catalogue", { intent: "category-create", name: "" });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error.name).toEqual([expect.any(String)]);

    const added = await page.post(cataloguePage, "/admin/catalogue", { intent: "category-create", name });
    expect(added).toMatchObject({ status: 302, location: "/admin/catalogue", toast: { type: "success" } });
    expect(await page.db.select().from(categories).where(eq(categories.name, name))).toHaveLength(1);
  });
});

describe("a coupon's page", () => {
  it("refuses a percentage over 100, deactivates the coupon, then deletes it and goes back to the list", async () => {
    await asOwner();
    const code = `EDIT${randomBytes(3).toString("hex").toUpperCase()}`;
    const [coupon] = await page.db.insert(coupons).values({ code, kind: "percent", amount: 10 }).returning();
    const path = `/admin/coupons/${coupon.id}`;
    const params = { couponId: coupon.id };
    const stored = async () => (await page.db.select().from(coupons).where(eq(coupons.id, coupon.id)))[0];

    const tooMuch = await page.post(couponPage, path, { intent: "save", code, kind: "percent", amount: "150" }, params);
    expect(tooMuch.status).toBe(400);
    expect(tooMuch.data.result.error.amount).toEqual([expect.any(String)]);
    expect(await stored()).toMatchObject({ amount: 10, active: true });

    const deactivated = await page.post(couponPage, path, { intent: "deactivate" }, params);
    expect(deactivated).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect((await stored()).active).toBe(false);

    const deleted = await page.post(couponPage, path, { intent: "delete" }, params);
    expect(deleted).toMatchObject({ status: 302, location: "/admin/coupons", toast: { type: "success" } });
    expect(await stored()).toBeUndefined();
  });
});

describe("a customer's balance form", () => {
  it("credits the balance with a toast; a zero amount stays in the form and changes nothing", async () => {
    await asOwner();
    const customer = await createCustomer(page.db, { balanceCents: 100 });
    const path = `/admin/customers/${customer.id}`;
    const params = { customerId: customer.id };
    const balance = async () => (await page.db.select().from(users).where(eq(users.id, customer.id)))[0].balanceCents;
    const form = { intent: "balance", direction: "credit", reason: "Goodwill for a late delivery" };

    const zero = await page.post(customerPage, path, { ...form, amount: "0" }, params);
    expect(zero.status).toBe(400);
    expect(zero.data.result.error.amount).toEqual([expect.any(String)]);
    expect(await balance()).toBe(100);

    const credited = await page.post(customerPage, path, { ...form, amount: "5" }, params);
    expect(credited).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect(await balance()).toBe(600);
  });
});

describe("the blocklist form", () => {
  it("adds a pattern with a toast; a pattern that would refuse everyone stays in the form", async () => {
    await asOwner();
    const pattern = `*@spam-${randomBytes(3).toString("hex")}.example`;
    const everyone = await page.post(blocklistPage, "/admin/blocklist", { intent: "add", pattern: "*@*" });
    expect(everyone.status).toBe(400);
    expect(everyone.data.result.error.pattern).toEqual([expect.any(String)]);
    expect(await page.db.select().from(emailBlocklist).where(eq(emailBlocklist.pattern, "*@*"))).toEqual([]);

    const added = await page.post(blocklistPage, "/admin/blocklist", { intent: "add", pattern, note: "Bots" });
    expect(added).toMatchObject({ status: 302, location: "/admin/blocklist", toast: { type: "success" } });
    expect(await page.db.select().from(emailBlocklist).where(eq(emailBlocklist.pattern, pattern))).toHaveLength(1);
  });
});

describe("the content page's FAQ form", () => {
  it("adds a question with a toast; an empty question stays in the form", async () => {
    await asOwner();
    const question = `How long does delivery take ${randomBytes(3).toString("hex")}?`;
    const empty = await page.post(contentPage, "/admin/content", { intent: "faq-add", question: "", answer: "Soon" });
    expect(empty.status).toBe(400);
    expect(empty.data.result.error.question).toEqual([expect.any(String)]);

    const added = await page.post(contentPage, "/admin/content", {
      intent: "faq-add",
      question,
      answer: "Minutes.",
    });
    expect(added).toMatchObject({ status: 302, location: "/admin/content#faq", toast: { type: "success" } });
    expect(await page.db.select().from(faqs).where(eq(faqs.question, question))).toHaveLength(1);
  });
});

describe("the gateways page's switch", () => {
  it("turns a gateway off with a toast; an unknown gateway is refused in a toast", async () => {
    await asOwner();
    const enabled = async () =>
      (await page.db.select().from(paymentGateways).where(eq(paymentGateways.name, "stripe")))[0].enabled;
    const unknown = await page.post(gatewaysPage, "/admin/gateways", { intent: "disable", name: "nope" });
    expect(unknown).toMatchObject({ status: 302, location: "/admin/gateways", toast: { type: "error" } });
    expect(await enabled()).toBe(true);

    const off = await page.post(gatewaysPage, "/admin/gateways", { intent: "disable", name: "stripe" });
    expect(off).toMatchObject({ status: 302, location: "/admin/gateways", toast: { type: "success" } });
    expect(await enabled()).toBe(false);
  });
});

describe("key generation", () => {
  it("shows the new codes once on the page and as a CSV file; a count of zero stays in the form", async () => {
    await asOwner();
    const listing = await createListing(page.db, { stock: 2 });
    const keysOf = (batchId: string) => page.db.select().from(redeemKeys).where(eq(redeemKeys.batchId, batchId));
    const form = { intent: "generate", plan: `${listing.optionId}:30`, quantity: "1" };

    const none = newId();
    const zero = await page.post(keysPage, "/admin/keys", { ...form, count: "0", batchId: none });
    expect(zero.status).toBe(400);
    expect(zero.data.result.error.count).toEqual([expect.any(String)]);
    expect(await keysOf(none)).toEqual([]);

    const batchId = newId();
    const made = await page.post(keysPage, "/admin/keys", { ...form, count: "2", batchId });
    expect(made.status).toBe(200);
    expect(made.data.extra.codes).toHaveLength(2);
    expect(await keysOf(batchId)).toHaveLength(2);

    const csvBatch = newId();
    const file = await page.post(keysCsvPage, "/admin/keys/csv", { ...form, count: "3", batchId: csvBatch });
    expect(file.status).toBe(200);
    expect(file.headers.get("content-type")).toMatch(/^text\/csv/);
    expect(file.headers.get("content-disposition")).toContain(`redeem-keys-${csvBatch}.csv`);
    expect(await keysOf(csvBatch)).toHaveLength(3);

    const noPlan = await page.post(keysCsvPage, "/admin/keys/csv", { ...form, plan: "", count: "1", batchId: newId() });
    expect(noPlan).toMatchObject({
      status: 302,
      location: "/admin/keys",
      toast: { type: "error", message: "Choose a plan" },
    });
  });
});

describe("the stock export", () => {
  it("downloads the option's credentials for an owner; a customer is sent to the dashboard", async () => {
    const listing = await createListing(page.db, { stock: 2 });
    const path = `/admin/stock/${listing.optionId}/export`;
    const params = { optionId: listing.optionId };
    page.jar.clear();
    await page.signIn((await createCustomer(page.db)).token);
    expect(await page.post(stockExportPage, path, {}, params)).toMatchObject({ status: 302, location: "/dashboard" });

    await asOwner();
    const file = await page.post(stockExportPage, path, {}, params);
    expect(file.status).toBe(200);
    expect(file.headers.get("content-disposition")).toMatch(/^attachment; /);
    expect(String(file.data)).toContain(`user0-${listing.optionId.slice(0, 4)}`);
  });
});

describe("the notification routing form", () => {
  it("saves which events are mailed with a toast; an unknown event is refused and changes nothing", async () => {
    await asOwner();
    const routing = async () =>
      (await page.shop.get("/v1/admin/notifications", { token: ownerToken })).body.payload.routing;
    const before = await routing();
    const unknown = await page.post(notificationsPage, "/admin/notifications", {
      intent: "routing",
      mail: ["not.an.event"],
    });
    expect(unknown.status).toBe(400);
    expect(await routing()).toEqual(before);

    const saved = await page.post(notificationsPage, "/admin/notifications", {
      intent: "routing",
      mail: ["stock.low"],
    });
    expect(saved).toMatchObject({ status: 302, location: "/admin/notifications", toast: { type: "success" } });
    expect(JSON.stringify(await routing())).toContain("stock.low");
  });
});

describe("a ticket's staff page", () => {
  it("sends the staff reply and closes the ticket, each with a toast; an empty reply stays in the form", async () => {
    const customer = await createCustomer(page.db);
    const opened = await page.shop.post(
      "/v1/ticket/create",
      { orderId: "", subject: "Login help", message: "It says wrong password." },
      { token: customer.token },
    );
    expect(opened.status).toBe(201);
    const ticketId: string = opened.body.payload._id;
    const path = `/admin/tickets/${ticketId}`;
    const params = { ticketId };
    await asOwner();
    const messages = () => page.db.select().from(ticketMessages).where(eq(ticketMessages.ticketId, ticketId));

    const empty = await page.post(ticketPage, path, { intent: "reply", message: " " }, params);
    expect(empty.status).toBe(400);
    expect(await messages()).toHaveLength(1);

    const replied = await page.post(ticketPage, path, { intent: "reply", message: "Try the reset link." }, params);
    expect(replied).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect((await messages()).map((message) => message.message)).toContain("Try the reset link.");

    const closed = await page.post(ticketPage, path, { intent: "close" }, params);
    expect(closed).toMatchObject({ status: 302, location: path, toast: { type: "success" } });
    expect((await page.db.select().from(tickets).where(eq(tickets.id, ticketId)))[0].status).toBe("closed");
  });
});

describe("the feedback inbox", () => {
  it("replies to a review and hides it, each with a toast; an unknown review is refused in a toast", async () => {
    const { customer, listing, line } = await paidOrder();
    const [review] = await page.db
      .insert(feedback)
      .values({
        userId: customer.id,
        orderProductId: line.id,
        productId: listing.productId,
        optionId: listing.optionId,
        stars: 4,
        message: "Works well",
      })
      .returning();
    await asOwner();
    const stored = async () => (await page.db.select().from(feedback).where(eq(feedback.id, review.id)))[0];

    const unknown = await page.post(feedbackPage, "/admin/feedback", { intent: "hide", id: newId() });
    expect(unknown).toMatchObject({ status: 302, location: "/admin/feedback", toast: { type: "error" } });

    const replied = await page.post(feedbackPage, "/admin/feedback", {
      intent: "reply",
      id: review.id,
      reply: "Thank you!",
    });
    expect(replied).toMatchObject({ status: 302, location: "/admin/feedback", toast: { type: "success" } });
    const hidden = await page.post(feedbackPage, "/admin/feedback", { intent: "hide", id: review.id });
    expect(hidden).toMatchObject({ status: 302, location: "/admin/feedback", toast: { type: "success" } });
    expect(await stored()).toMatchObject({ reply: "Thank you!", visible: false });
  });
});

describe("the requests inbox", () => {
  it("rejects a customer's request with the reason and a toast; a missing reason stays in the form", async () => {
    const { customer, listing, orderId } = await paidOrder();
    const asked = await createOtherRequest(page.shop.deps, {
      userId: customer.id,
      orderId,
      productId: listing.productId,
      productOptionId: listing.optionId,
      message: "Can I change the profile name?",
    });
    await asOwner();
    const stored = async () => (await page.db.select().from(requests).where(eq(requests.id, asked._id)))[0];

    const noReason = await page.post(requestsPage, "/admin/requests", { intent: "reject", id: asked._id, reason: "" });
    expect(noReason.status).toBe(400);
    expect(noReason.data.form).toBe(`reject-${asked._id}`);
    expect((await stored()).status).toBe("pending");

    const rejected = await page.post(requestsPage, "/admin/requests", {
      intent: "reject",
      id: asked._id,
      reason: "Profile names are fixed by the provider.",
    });
    expect(rejected).toMatchObject({ status: 302, location: "/admin/requests", toast: { type: "success" } });
    expect((await stored()).status).toBe("rejected");
  });
});
