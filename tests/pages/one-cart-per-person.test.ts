import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { coupons, mailOutbox, orderProducts, orders, payments, users, warrantyDurations } from "../../api/db/schema";
import { issueChallenge } from "../../api/services/guards/human-check";
import { type PageTest, createPageTest } from "../support/pages";
import { createListing } from "../support/shop";
import { route } from "../support/routes";

const cartPage = await route("cart");
const loginPage = await route("login");
const sandboxPage = await route("pay.sandbox.$paymentId");

/*
 * Issue 36: a signed-in customer was charged for lines no page showed them. The guest's unpaid order
 * survived sign-in in its cookie, its lines came back into the cookie cart once it was cancelled, and
 * the checkout merged them into the account's cart. One cart per person now: the two meet at sign-in,
 * and the order equals the cart the page showed.
 */

let page: PageTest;
beforeAll(async () => {
  page = await createPageTest();
});
afterAll(() => page.close());

const PASSWORD = "correct horse battery staple";

async function accountWithBalance(balanceCents: number) {
  const name = `o${randomBytes(5).toString("hex")}`;
  const answer = await page.shop.post("/v1/user/register", {
    username: name,
    email: `${name}@example.com`,
    password: PASSWORD,
    password2: PASSWORD,
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.body.message}`);
  await page.db.update(users).set({ balanceCents }).where(eq(users.username, name));
  return { name, email: `${name}@example.com` };
}

const addFields = (optionId: string, quantity: number) => ({
  intent: "add",
  optionId,
  warrantyOptionId: optionId,
  duration: "30",
  quantity: String(quantity),
  redirectTo: "/cart",
});

/** The cart page as it renders: its lines and the checkout form's hidden fields. */
async function shownCart() {
  const { rootData, routeData } = await page.loadPage(cartPage, "/cart");
  const cart = (routeData as { data: { quote: any; checkout: any } }).data;
  return { ...cart, root: rootData };
}

/** The checkout form of the cart page just shown, posted with `fields`. */
async function checkOut(shown: Awaited<ReturnType<typeof shownCart>>, fields: Record<string, string>) {
  return page.post(cartPage, "/cart", {
    intent: "checkout",
    message: "",
    idempotencyKey: shown.checkout.checkoutKey,
    ...(shown.checkout.shownCart ? { shownCart: shown.checkout.shownCart } : {}),
    ...(shown.checkout.appliedCoupon ? { appliedCoupon: shown.checkout.appliedCoupon } : {}),
    ...fields,
  });
}

const humanAnswer = () => issueChallenge(page.shop.config, new Date(Date.now() - 5_000)).token!;

async function orderOf(location: string | undefined) {
  const orderId = new URL(location!, "http://x").searchParams.get("id")!;
  const [order] = await page.db.select().from(orders).where(eq(orders.id, orderId));
  const lines = await page.db.select().from(orderProducts).where(eq(orderProducts.orderId, orderId));
  return { order, lines: lines.map((line) => ({ title: line.title, quantity: line.quantity })) };
}

async function balanceOf(username: string) {
  const [account] = await page.db.select().from(users).where(eq(users.username, username));
  return account.balanceCents;
}

describe("issue 36: the order holds what the cart showed", () => {
  it("charges $1.49 for a cart shown at $1.49 after a guest's sandbox order was cancelled behind a sign-in", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 10 });
    const account = await accountWithBalance(5_000);

    // 1. A guest checks out 2 x Streamora with the sandbox: the payment page opens, the order is pending.
    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    const guestCart = await shownCart();
    const guestCheckout = await checkOut(guestCart, {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    expect(guestCheckout.location).toContain("/pay/sandbox/");
    const paymentId = guestCheckout.location!.split("/").at(-1)!;

    // 2. Signs in. Every guest-cart cookie ends with it: nothing of the guest's cart is left in the browser.
    const signedIn = await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    expect(signedIn.status).toBe(302);
    expect(page.jar.has("unpaidOrder")).toBe(false);
    expect(page.jar.has("cart")).toBe(false);

    // 3. Cancels the payment on the sandbox page.
    const cancelled = await page.post(sandboxPage, `/pay/sandbox/${paymentId}`, { intent: "cancel" }, { paymentId });
    expect(cancelled.status).toBe(302);

    // 4. Signed in, the cart is empty; one Animaru is added, and the cart shows that one line at $1.49.
    expect((await shownCart()).quote.cartItems).toEqual([]);
    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));
    const shown = await shownCart();
    expect(shown.quote.cartItems.map((line: any) => [line.option.product.title, line.quantity])).toEqual([
      ["Animaru Premium", 1],
    ]);
    expect(shown.checkout.total).toBe(1.49);

    // 5. Checks out with the balance: $1.49 is charged and the order holds Animaru x1 only.
    const paid = await checkOut(shown, { paymentMethod: "balance" });
    expect(paid.toast).toMatchObject({ type: "success", message: "Thank you! Your order is complete." });
    const { order, lines } = await orderOf(paid.location);
    expect(order.priceCents).toBe(149);
    expect(lines).toEqual([{ title: "Animaru Premium", quantity: 1 }]);
    expect(await balanceOf(account.name)).toBe(5_000 - 149);
    // The order mail lists that line and that total, and nothing else.
    const [mail] = await page.db.select().from(mailOutbox).where(eq(mailOutbox.orderId, order.id));
    expect(mail.text).toContain("1 × Animaru Premium");
    expect(mail.text).not.toContain("Streamora");
    expect(mail.text).toContain("Total: $1.49");

    // 6. The cart is empty afterwards: a second checkout has nothing to charge.
    expect((await shownCart()).quote.cartItems).toEqual([]);
  });

  it("asks the hosted gateway for exactly the shown total, and its page lists the lines", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 10 });
    const account = await accountWithBalance(0);

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    const guestCheckout = await checkOut(await shownCart(), {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    const guestPaymentId = guestCheckout.location!.split("/").at(-1)!;
    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    await page.post(sandboxPage, `/pay/sandbox/${guestPaymentId}`, { intent: "cancel" }, { paymentId: guestPaymentId });

    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));
    const shown = await shownCart();
    const hosted = await checkOut(shown, { paymentMethod: "sandbox" });
    expect(hosted.location).toContain("/pay/sandbox/");
    const paymentId = hosted.location!.split("/").at(-1)!;
    const [payment] = await page.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment.amountCents).toBe(149);

    const paymentPage = await page.load(sandboxPage, `/pay/sandbox/${paymentId}`, { paymentId });
    expect(paymentPage.data.payment).toMatchObject({
      amount: 1.49,
      lines: [expect.objectContaining({ title: "Animaru Premium", quantity: 1, price: 1.49 })],
    });
  });

  it("never grows a quantity when a refused checkout is retried", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 20 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 20 });
    const account = await accountWithBalance(100);

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    const guestCheckout = await checkOut(await shownCart(), {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    const guestPaymentId = guestCheckout.location!.split("/").at(-1)!;
    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    await page.post(sandboxPage, `/pay/sandbox/${guestPaymentId}`, { intent: "cancel" }, { paymentId: guestPaymentId });
    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));

    for (let attempt = 0; attempt < 3; attempt++) {
      const shown = await shownCart();
      expect(shown.quote.cartItems.map((line: any) => line.quantity)).toEqual([1]);
      const refused = await checkOut(shown, { paymentMethod: "balance" });
      expect(refused.status).toBe(400);
      expect(refused.data.result.error[""]).toEqual(["Insufficient balance"]);
    }
    const [account_] = await page.db.select().from(users).where(eq(users.username, account.name));
    expect(await page.db.select().from(orders).where(eq(orders.userId, account_.id))).toEqual([]);
  });
});

describe("one cart per person: the carts meet at sign-in, once", () => {
  it("moves the guest's lines, and those of a cancelled guest order, into the account once and ends every guest cookie", async () => {
    page.jar.clear();
    const kept = await createListing(page.db, { title: "Kept In Cookie", priceCents: 300, stock: 10 });
    const returned = await createListing(page.db, { title: "Given Back", priceCents: 200, stock: 10 });
    const account = await accountWithBalance(0);

    await page.post(cartPage, "/cart", addFields(returned.optionId, 2));
    const guestCheckout = await checkOut(await shownCart(), {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    const paymentId = guestCheckout.location!.split("/").at(-1)!;
    await page.post(sandboxPage, `/pay/sandbox/${paymentId}`, { intent: "cancel" }, { paymentId });
    await page.post(cartPage, "/cart", addFields(kept.optionId, 1));
    const code = `GUEST${randomBytes(3).toString("hex").toUpperCase()}`;
    await page.db.insert(coupons).values({ code, kind: "percent", amount: 10 });
    await page.post(cartPage, "/cart", { intent: "coupon", coupon: code, redirectTo: "/cart" });
    expect(page.jar.has("coupon")).toBe(true);

    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    for (const name of ["cart", "unpaidOrder", "coupon"]) expect(page.jar.has(name)).toBe(false);
    const lines = (await shownCart()).quote.cartItems.map((line: any) => [line.option.product.title, line.quantity]);
    expect(lines.sort()).toEqual([
      ["Given Back", 2],
      ["Kept In Cookie", 1],
    ]);
    // Pages read after the sign-in merge nothing more: the cart stays as it is.
    await shownCart();
    expect((await shownCart()).quote.cartItems.map((line: any) => line.quantity).sort()).toEqual([1, 2]);
  });

  it("forgets a guest order still waiting for payment at sign-in: paid or not, it never joins the account's cart", async () => {
    page.jar.clear();
    const pending = await createListing(page.db, { title: "Still Pending", priceCents: 250, stock: 10 });
    const account = await accountWithBalance(0);
    await page.post(cartPage, "/cart", addFields(pending.optionId, 1));
    const guestCheckout = await checkOut(await shownCart(), {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    expect(page.jar.has("unpaidOrder")).toBe(false);
    const paymentId = guestCheckout.location!.split("/").at(-1)!;
    await page.post(sandboxPage, `/pay/sandbox/${paymentId}`, { intent: "cancel" }, { paymentId });
    expect((await shownCart()).quote.cartItems).toEqual([]);
  });
});

describe("the order equals the cart the page showed", () => {
  it("refuses a stale page's checkout (a second tab changed the cart) and shows the cart again, charging nothing", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { title: "Two Tabs", priceCents: 500, stock: 10 });
    const account = await accountWithBalance(5_000);
    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));
    const firstTab = await shownCart();
    // The second tab adds one more; the first tab's form still says one.
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));

    const refused = await checkOut(firstTab, { paymentMethod: "balance" });
    expect(refused.status).toBe(302);
    expect(refused.location).toBe("/cart");
    expect(refused.toast).toMatchObject({ type: "error", message: expect.stringMatching(/^Your cart changed/) });
    expect(await balanceOf(account.name)).toBe(5_000);

    const again = await shownCart();
    expect(again.quote.cartItems.map((line: any) => line.quantity)).toEqual([2]);
    const paid = await checkOut(again, { paymentMethod: "balance" });
    expect((await orderOf(paid.location)).order.priceCents).toBe(1_000);
    expect(await balanceOf(account.name)).toBe(4_000);
  });

  it("refuses a guest's checkout when a price changed after the page was shown", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { title: "Repriced", priceCents: 500, stock: 10 });
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));
    const shown = await shownCart();
    await page.db
      .update(warrantyDurations)
      .set({ priceCents: 900 })
      .where(eq(warrantyDurations.optionId, listing.optionId));

    const refused = await checkOut(shown, {
      email: `guest-${randomBytes(4).toString("hex")}@example.com`,
      paymentMethod: "sandbox",
      "g-recaptcha-response": humanAnswer(),
    });
    expect(refused.location).toBe("/cart");
    expect(refused.toast?.message).toMatch(/^Your cart changed/);
    expect((await shownCart()).checkout.total).toBe(9);
  });

  it("refuses a checkout form that does not say what it showed", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { priceCents: 500, stock: 10 });
    const account = await accountWithBalance(5_000);
    await page.post(loginPage, "/login", { username: account.name, password: PASSWORD });
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));
    const shown = await shownCart();
    const refused = await checkOut(
      { ...shown, checkout: { ...shown.checkout, shownCart: undefined } },
      {
        paymentMethod: "balance",
      },
    );
    expect(refused.toast?.message).toMatch(/^Your cart changed/);
    expect(await balanceOf(account.name)).toBe(5_000);
  });
});
