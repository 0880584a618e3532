import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { deliveredCredentials, orders, payments, users } from "../../api/db/schema";
import { ORDER_ACTION_MESSAGES } from "../../api/services/orders/admin-actions";
import { type PageTest, createPageTest } from "../support/pages";
import { route } from "../support/routes";
import { addToCart, createCustomer, createListing } from "../support/shop";

const orderPage = await route("admin.orders.$orderId");

/*
 * The back office's order page (issue 41): deliver a manual line, confirm a payment by hand, refund the order and
 * cancel an unpaid one, each posted as a browser without JavaScript, each with a refusal that changes nothing.
 */

let page: PageTest;
let ownerToken: string;
beforeAll(async () => {
  page = await createPageTest();
  ownerToken = (await createCustomer(page.db, { role: "owner" })).token;
}, 180_000);
afterAll(() => page.close());

/** An order a customer placed through /v1: by balance (paid at once) or sandbox (pending). */
async function placeOrder(listing: { optionId: string }, quantity: number, method: "balance" | "sandbox") {
  const customer = await createCustomer(page.db, { balanceCents: method === "balance" ? quantity * 500 : 0 });
  await addToCart(page.shop, customer.token, listing.optionId, quantity);
  const created = await page.shop.post("/v1/order/create", { paymentMethod: method }, { token: customer.token });
  expect(created.status, created.body.message).toBe(201);
  const orderId: string = created.body.payload.orderId;
  const [payment] = await page.db.select().from(payments).where(eq(payments.orderId, orderId));
  return { orderId, payment, customer };
}

async function openAsOwner(orderId: string) {
  page.jar.clear();
  await page.signIn(ownerToken);
  const loaded = await page.load(orderPage, `/admin/orders/${orderId}`, { orderId });
  expect(loaded.status).toBe(200);
  return loaded.data.order;
}

const post = (orderId: string, fields: Record<string, string | string[]>) =>
  page.post(orderPage, `/admin/orders/${orderId}`, fields, { orderId });

const statusOf = async (orderId: string) =>
  (await page.db.select({ status: orders.status }).from(orders).where(eq(orders.id, orderId)))[0].status;

describe("the order page's deliver form", () => {
  it("refuses too few credentials beside the line's form, then delivers the pasted ones with a toast", async () => {
    const manual = await createListing(page.db, { fulfilMode: "manual" });
    const { orderId } = await placeOrder(manual, 2, "balance");
    const order = await openAsOwner(orderId);
    const lineId: string = order.lines[0]._id;

    const tooFew = await post(orderId, { intent: "deliver", lineId, credentials: "gold1:pw1" });
    expect(tooFew.status).toBe(400);
    expect(tooFew.data.form).toBe(`deliver-${lineId}`);
    expect(JSON.stringify(tooFew.data.result.error)).toContain(ORDER_ACTION_MESSAGES.wrongCount(2, 1));
    expect(
      await page.db.select().from(deliveredCredentials).where(eq(deliveredCredentials.orderProductId, lineId)),
    ).toEqual([]);

    const delivered = await post(orderId, { intent: "deliver", lineId, credentials: "gold1:pw1\ngold2:pw2" });
    expect(delivered).toMatchObject({ status: 302, location: `/admin/orders/${orderId}`, toast: { type: "success" } });
    expect(delivered.toast?.message).toMatch(/^Delivered 2 credentials/);
    const rows = await page.db
      .select()
      .from(deliveredCredentials)
      .where(eq(deliveredCredentials.orderProductId, lineId));
    expect(rows).toHaveLength(2);
    expect(await statusOf(orderId)).toBe("completed");
  });
});

describe("the order page's confirm form", () => {
  it("refuses a reference the provider did not give, then confirms the payment and completes the order", async () => {
    const listing = await createListing(page.db, { stock: 1 });
    const { orderId, payment } = await placeOrder(listing, 1, "sandbox");
    await openAsOwner(orderId);
    const form = { intent: "confirm", paymentId: payment.id, reason: "Paid, webhook lost" };

    const wrong = await post(orderId, { ...form, reference: "sandbox_other" });
    expect(wrong.status).toBe(400);
    expect(wrong.data.form).toBe(`confirm-${payment.id}`);
    expect(wrong.data.result.error.reference).toEqual([ORDER_ACTION_MESSAGES.referenceMismatch]);
    expect(await statusOf(orderId)).toBe("pending");

    const confirmed = await post(orderId, { ...form, reference: payment.providerReference! });
    expect(confirmed).toMatchObject({ status: 302, location: `/admin/orders/${orderId}`, toast: { type: "success" } });
    expect(await statusOf(orderId)).toBe("completed");
    const [stored] = await page.db.select().from(payments).where(eq(payments.id, payment.id));
    expect(stored).toMatchObject({ status: "paid", confirmationReason: "Paid, webhook lost" });
  });
});

describe("the order page's refund buttons", () => {
  it("refunds the whole order to the customer's balance once; the second press is refused beside the button", async () => {
    const listing = await createListing(page.db, { stock: 2 });
    const { orderId, customer } = await placeOrder(listing, 2, "balance");
    await openAsOwner(orderId);
    const balance = async () =>
      (await page.db.select({ cents: users.balanceCents }).from(users).where(eq(users.id, customer.id)))[0].cents;
    expect(await balance()).toBe(0);

    const refunded = await post(orderId, { intent: "refund-order" });
    expect(refunded).toMatchObject({
      status: 302,
      location: `/admin/orders/${orderId}`,
      toast: { type: "success", message: ORDER_ACTION_MESSAGES.refunded(1000) },
    });
    expect(await balance()).toBe(1000);

    const again = await post(orderId, { intent: "refund-order" });
    expect(again.status).toBe(400);
    expect(again.data).toMatchObject({ form: "refund-order", result: { error: { "": [expect.any(String)] } } });
    expect(await balance()).toBe(1000);
  });

  it("refuses a line refund with no line ticked in its form", async () => {
    const listing = await createListing(page.db, { stock: 1 });
    const { orderId } = await placeOrder(listing, 1, "balance");
    await openAsOwner(orderId);
    const none = await post(orderId, { intent: "refund-lines" });
    expect(none.status).toBe(400);
    expect(none.data.form).toBe("refund-lines");
    expect(await statusOf(orderId)).toBe("completed");
  });
});

describe("the order page's cancel button", () => {
  it("cancels an unpaid order with a toast; a paid one is refused and stays as it was", async () => {
    const listing = await createListing(page.db, { stock: 2 });
    const pending = await placeOrder(listing, 1, "sandbox");
    await openAsOwner(pending.orderId);
    const cancelled = await post(pending.orderId, { intent: "cancel" });
    expect(cancelled).toMatchObject({
      status: 302,
      location: `/admin/orders/${pending.orderId}`,
      toast: { type: "success", message: ORDER_ACTION_MESSAGES.cancelled },
    });
    expect(await statusOf(pending.orderId)).toBe("cancelled");

    const paid = await placeOrder(listing, 1, "balance");
    const refused = await post(paid.orderId, { intent: "cancel" });
    expect(refused.status).toBe(400);
    expect(refused.data).toMatchObject({
      form: "cancel",
      result: { error: { "": [ORDER_ACTION_MESSAGES.cancelNotPending("completed")] } },
    });
    expect(await statusOf(paid.orderId)).toBe("completed");
  });

  it("sends a customer to the dashboard and cancels nothing", async () => {
    const listing = await createListing(page.db, { stock: 1 });
    const pending = await placeOrder(listing, 1, "sandbox");
    page.jar.clear();
    await page.signIn(pending.customer.token);
    const refused = await post(pending.orderId, { intent: "cancel" });
    expect(refused).toMatchObject({ status: 302, location: "/dashboard" });
    expect(await statusOf(pending.orderId)).toBe("pending");
  });
});
