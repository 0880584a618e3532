import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { orders, users } from "../../api/db/schema";
import { type PageTest, createPageTest } from "../support/pages";
import { createCustomer, createListing } from "../support/shop";
import { route } from "../support/routes";

const cartPage = await route("cart");

/* The cart and checkout forms, posted to the /cart action as a browser without JavaScript posts them. */

let page: PageTest;
beforeAll(async () => {
  page = await createPageTest();
});
afterAll(() => page.close());

const addFields = (optionId: string, quantity = "1") => ({
  intent: "add",
  optionId,
  warrantyOptionId: optionId,
  duration: "30",
  quantity,
  redirectTo: "/cart",
});

describe("the cart form", () => {
  it("adds a plan to a guest's cookie cart and goes back to the cart", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { priceCents: 700 });
    const added = await page.post(cartPage, "/cart", addFields(listing.optionId, "2"));
    expect(added.status).toBe(302);
    expect(added.location).toBe("/cart");
    expect(page.jar.has("cart")).toBe(true);

    const cart = await page.load(cartPage, "/cart");
    expect(cart.data.quote.cartItems).toEqual([
      expect.objectContaining({ option: expect.objectContaining({ _id: listing.optionId }), quantity: 2, price: 14 }),
    ]);
  });

  it("sends a refused plan back to its product with the reason in a toast, and adds nothing", async () => {
    page.jar.clear();
    const refused = await page.post(cartPage, "/cart", {
      ...addFields("not-a-plan"),
      errorRedirectTo: "/shop/some-product",
    });
    expect(refused.status).toBe(302);
    expect(refused.location).toBe("/shop/some-product");
    expect(refused.toast).toMatchObject({ type: "error", message: "Please choose a plan" });
    expect(page.jar.has("cart")).toBe(false);
  });
});

describe("the checkout form", () => {
  it("pays a signed-in customer's cart from the balance and opens the order with a toast", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db, { balanceCents: 2_000 });
    const listing = await createListing(page.db, { priceCents: 500 });
    await page.signIn(customer.token);
    expect((await page.post(cartPage, "/cart", addFields(listing.optionId))).status).toBe(302);

    const shown = await page.load(cartPage, "/cart");
    const paid = await page.post(cartPage, "/cart", {
      intent: "checkout",
      shownCart: shown.data.checkout.shownCart,
      paymentMethod: "balance",
      message: "",
      idempotencyKey: "page-test-checkout-1",
    });
    expect(paid.status).toBe(302);
    expect(paid.location).toMatch(/^\/find-order\?id=[\w-]{22}$/);
    expect(paid.toast).toMatchObject({ type: "success", message: "Thank you! Your order is complete." });
    const orderId = new URL(paid.location!, "http://x").searchParams.get("id")!;
    const [order] = await page.db.select().from(orders).where(eq(orders.id, orderId));
    expect(order).toMatchObject({ status: "completed", userId: customer.id, priceCents: 500 });
    const [account] = await page.db.select().from(users).where(eq(users.id, customer.id));
    expect(account.balanceCents).toBe(1_500);
  });

  it("keeps the cart and says why when the balance is short, without making an order", async () => {
    page.jar.clear();
    const customer = await createCustomer(page.db, { balanceCents: 100 });
    const listing = await createListing(page.db, { priceCents: 500 });
    await page.signIn(customer.token);
    await page.post(cartPage, "/cart", addFields(listing.optionId));

    const shown = await page.load(cartPage, "/cart");
    const refused = await page.post(cartPage, "/cart", {
      intent: "checkout",
      shownCart: shown.data.checkout.shownCart,
      paymentMethod: "balance",
      message: "",
      idempotencyKey: "page-test-checkout-2",
    });
    expect(refused.status).toBe(400);
    expect(refused.location).toBeUndefined();
    expect(refused.data.form).toBe("checkout");
    expect(refused.data.result.error[""]).toEqual(["Insufficient balance"]);
    expect(await page.db.select().from(orders).where(eq(orders.userId, customer.id))).toEqual([]);
    const cart = await page.load(cartPage, "/cart");
    expect(cart.data.quote.cartItems).toHaveLength(1);
  });
});
