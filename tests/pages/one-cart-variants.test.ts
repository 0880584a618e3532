import { randomBytes } from "node:crypto";
import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { cartItems, carts, coupons, orderProducts, orders, payments, users } from "../../api/db/schema";
import { RESERVATION_MS } from "../../api/services/orders/create";
import { expireUnpaidOrders } from "../../api/services/orders/settlement";
import { issueChallenge } from "../../api/services/guards/human-check";
import { type PageTest, createPageTest } from "../support/pages";
import { createListing } from "../support/shop";
import { route } from "../support/routes";

const cartPage = await route("cart");
const loginPage = await route("login");
const logoutPage = await route("logout");
const sandboxPage = await route("pay.sandbox.$paymentId");
const signupPage = await route("signup");

/*
 * Issue 36's steps in the variants an outside check repeats them in: sign-up instead of sign-in, expiry
 * instead of cancel, the hosted gateway instead of the balance, a refusal retried, the guest order cancelled
 * before the sign-in, and the sign-in form posted twice at once with the same guest cookies.
 */

let page: PageTest;
beforeAll(async () => {
  page = await createPageTest();
});
afterAll(() => page.close());

const PASSWORD = "correct horse battery staple";

async function accountWithBalance(balanceCents: number) {
  const name = `v${randomBytes(5).toString("hex")}`;
  const answer = await page.shop.post("/v1/user/register", {
    username: name,
    email: `${name}@example.com`,
    password: PASSWORD,
    password2: PASSWORD,
  });
  if (answer.status !== 201) throw new Error(`register: ${answer.status} ${answer.body.message}`);
  await page.db.update(users).set({ balanceCents }).where(eq(users.username, name));
  return { name };
}

async function signUp() {
  const name = `s${randomBytes(5).toString("hex")}`;
  const answer = await page.post(signupPage, "/signup", {
    username: name,
    email: `${name}@example.com`,
    password: PASSWORD,
    password2: PASSWORD,
  });
  expect(answer.status, JSON.stringify(answer.data)).toBe(302);
  return { name };
}

const signIn = (account: { name: string }) =>
  page.post(loginPage, "/login", { username: account.name, password: PASSWORD });

const addFields = (optionId: string, quantity: number) => ({
  intent: "add",
  optionId,
  warrantyOptionId: optionId,
  duration: "30",
  quantity: String(quantity),
  redirectTo: "/cart",
});

async function shownCart() {
  const { routeData } = await page.loadPage(cartPage, "/cart");
  return (routeData as { data: { quote: any; checkout: any } }).data;
}

const linesOf = (shown: Awaited<ReturnType<typeof shownCart>>) =>
  shown.quote.cartItems.map((line: any) => [line.option.product.title, line.quantity]).sort();

async function checkOut(shown: Awaited<ReturnType<typeof shownCart>>, fields: Record<string, string>) {
  return page.post(cartPage, "/cart", {
    intent: "checkout",
    message: "",
    idempotencyKey: shown.checkout.checkoutKey,
    shownCart: shown.checkout.shownCart,
    appliedCoupon: shown.checkout.appliedCoupon,
    ...fields,
  });
}

/** A guest's sandbox checkout of the cookie cart: the payment page opens, the order waits for payment. */
async function guestSandboxOrder() {
  const answer = await checkOut(await shownCart(), {
    email: `guest-${randomBytes(4).toString("hex")}@example.com`,
    paymentMethod: "sandbox",
    "g-recaptcha-response": issueChallenge(page.shop.config, new Date(Date.now() - 5_000)).token!,
  });
  expect(answer.location).toContain("/pay/sandbox/");
  return answer.location!.split("/").at(-1)!;
}

const cancelPayment = (paymentId: string) =>
  page.post(sandboxPage, `/pay/sandbox/${paymentId}`, { intent: "cancel" }, { paymentId });

async function accountState(username: string) {
  const [account] = await page.db.select().from(users).where(eq(users.username, username));
  const placed = await page.db.select().from(orders).where(eq(orders.userId, account.id));
  const cart = await page.db
    .select({ quantity: cartItems.quantity })
    .from(cartItems)
    .innerJoin(carts, eq(carts.id, cartItems.cartId))
    .where(eq(carts.userId, account.id));
  return { balanceCents: account.balanceCents, orders: placed, cartQuantities: cart.map((line) => line.quantity) };
}

describe("issue 36 in variants", () => {
  it("sign-up instead of sign-in, then the hosted gateway: the payment asks exactly the shown total", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 10 });

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    const guestPayment = await guestSandboxOrder();
    await signUp();
    for (const name of ["cart", "unpaidOrder", "coupon"]) expect(page.jar.has(name)).toBe(false);
    await cancelPayment(guestPayment);

    expect((await shownCart()).quote.cartItems).toEqual([]);
    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));
    const shown = await shownCart();
    expect(linesOf(shown)).toEqual([["Animaru Premium", 1]]);
    const hosted = await checkOut(shown, { paymentMethod: "sandbox" });
    expect(hosted.location).toContain("/pay/sandbox/");
    const paymentId = hosted.location!.split("/").at(-1)!;
    const [payment] = await page.db.select().from(payments).where(eq(payments.id, paymentId));
    expect(payment.amountCents).toBe(Math.round(shown.checkout.total * 100));
    expect(payment.amountCents).toBe(149);
    const lines = await page.db.select().from(orderProducts).where(eq(orderProducts.orderId, payment.orderId!));
    expect(lines.map((line) => [line.title, line.quantity])).toEqual([["Animaru Premium", 1]]);
  });

  it("the guest order expires (as the job expires it) after the sign-in: the balance pays the shown $1.49 only", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 10 });
    const account = await accountWithBalance(5_000);

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    await guestSandboxOrder();
    await signIn(account);
    await expireUnpaidOrders(page.db, new Date(Date.now() + RESERVATION_MS + 60_000));

    expect((await shownCart()).quote.cartItems).toEqual([]);
    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));
    for (let round = 0; round < 2; round++) {
      if (round > 0) await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));
      const shown = await shownCart();
      expect(linesOf(shown)).toEqual([["Animaru Premium", 1]]);
      const paid = await checkOut(shown, { paymentMethod: "balance" });
      expect(paid.toast).toMatchObject({ type: "success" });
    }
    const state = await accountState(account.name);
    expect(state.balanceCents).toBe(5_000 - 2 * 149);
    expect(state.orders.map((order) => order.priceCents)).toEqual([149, 149]);
  });

  it("a checkout refused for the balance, retried three times after sign-up and expiry: no quantity grows, nothing is charged", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 20 });
    const animaru = await createListing(page.db, { title: "Animaru Premium", priceCents: 149, stock: 20 });

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    await guestSandboxOrder();
    const account = await signUp();
    await expireUnpaidOrders(page.db, new Date(Date.now() + RESERVATION_MS + 60_000));
    await page.post(cartPage, "/cart", addFields(animaru.optionId, 1));

    for (let attempt = 0; attempt < 3; attempt++) {
      const shown = await shownCart();
      expect(linesOf(shown)).toEqual([["Animaru Premium", 1]]);
      const refused = await checkOut(shown, { paymentMethod: "balance" });
      expect(refused.status).toBe(400);
      expect(refused.data.result.error[""]).toEqual(["Insufficient balance"]);
      expect((await accountState(account.name)).cartQuantities).toEqual([1]);
    }
    const state = await accountState(account.name);
    expect(state).toMatchObject({ balanceCents: 0, orders: [], cartQuantities: [1] });
  });

  it("a guest order cancelled before the sign-in: its lines join the account once, across sign-outs and sign-ins", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const account = await accountWithBalance(5_000);

    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));
    await cancelPayment(await guestSandboxOrder());
    // The cancelled order's lines are back in the guest's cart.
    expect(linesOf(await shownCart())).toEqual([["Streamora Premium", 2]]);

    await signIn(account);
    expect(linesOf(await shownCart())).toEqual([["Streamora Premium", 2]]);
    for (let round = 0; round < 2; round++) {
      await page.post(logoutPage, "/logout", {});
      expect((await shownCart()).quote.cartItems).toEqual([]);
      await signIn(account);
      expect(linesOf(await shownCart())).toEqual([["Streamora Premium", 2]]);
    }
    const shown = await shownCart();
    const paid = await checkOut(shown, { paymentMethod: "balance" });
    expect(paid.toast).toMatchObject({ type: "success" });
    expect((await accountState(account.name)).balanceCents).toBe(5_000 - 798);
  });

  it("merges the guest cart once when the sign-in form is posted twice at once with the same cookies", async () => {
    page.jar.clear();
    const streamora = await createListing(page.db, { title: "Streamora Premium", priceCents: 399, stock: 10 });
    const returned = await createListing(page.db, { title: "Given Back", priceCents: 200, stock: 10 });
    const account = await accountWithBalance(5_000);

    await page.post(cartPage, "/cart", addFields(returned.optionId, 1));
    await cancelPayment(await guestSandboxOrder());
    await page.post(cartPage, "/cart", addFields(streamora.optionId, 2));

    const both = await Promise.all([signIn(account), signIn(account)]);
    for (const answer of both) {
      expect(answer.status).toBe(302);
      expect(answer.toast).toMatchObject({ type: "success" });
    }
    expect((await accountState(account.name)).cartQuantities.sort()).toEqual([1, 2]);
    expect(linesOf(await shownCart())).toEqual([
      ["Given Back", 1],
      ["Streamora Premium", 2],
    ]);
  });
});

/*
 * A customer's coupon lives in the signed `coupon` cookie (the server cart also remembers the last one applied,
 * but nothing prices with that): the page shows the cookie's coupon, the checkout sends it, and the digest
 * covers its code and the total, so the coupon charged is the one shown or the checkout is refused.
 */
describe("the coupon a customer's checkout uses is the one the page showed", () => {
  async function couponOf(percent: number) {
    const code = `V${randomBytes(4).toString("hex").toUpperCase()}`;
    await page.db.insert(coupons).values({ code, kind: "percent", amount: percent });
    return code;
  }
  const applyCoupon = (code: string) =>
    page.post(cartPage, "/cart", { intent: "coupon", coupon: code, redirectTo: "/cart" });

  async function signedInCart(balanceCents: number) {
    page.jar.clear();
    const listing = await createListing(page.db, { title: "Couponed", priceCents: 1_000, stock: 10 });
    const account = await accountWithBalance(balanceCents);
    await signIn(account);
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));
    return account;
  }

  it("refuses when another tab removed or changed the coupon, then charges what the page shows again", async () => {
    const account = await signedInCart(5_000);
    const tenOff = await couponOf(10);
    const halfOff = await couponOf(50);
    await applyCoupon(tenOff);
    const firstTab = await shownCart();
    expect(firstTab.checkout.total).toBe(9);

    await applyCoupon(halfOff); // the second tab
    const refused = await checkOut(firstTab, { paymentMethod: "balance" });
    expect(refused.toast?.message).toMatch(/^Your cart changed/);
    await applyCoupon(""); // and then removes it
    expect((await checkOut(firstTab, { paymentMethod: "balance" })).toast?.message).toMatch(/^Your cart changed/);
    expect(await accountState(account.name)).toMatchObject({ balanceCents: 5_000, orders: [] });

    const shown = await shownCart();
    expect(shown.checkout.total).toBe(10);
    await checkOut(shown, { paymentMethod: "balance" });
    const state = await accountState(account.name);
    expect(state.orders.map((order) => order.priceCents)).toEqual([1_000]);
    expect(state.balanceCents).toBe(4_000);
  });

  it("refuses when the coupon changed or lapsed after the page was shown: never charges another discount", async () => {
    const account = await signedInCart(5_000);
    const code = await couponOf(10);
    await applyCoupon(code);
    const shown = await shownCart();
    expect(shown.checkout.total).toBe(9);

    await page.db.update(coupons).set({ amount: 50 }).where(eq(coupons.code, code));
    expect((await checkOut(shown, { paymentMethod: "balance" })).toast?.message).toMatch(/^Your cart changed/);
    await page.db.update(coupons).set({ amount: 10, active: false }).where(eq(coupons.code, code));
    const lapsed = await checkOut(shown, { paymentMethod: "balance" });
    expect(lapsed.toast?.type ?? lapsed.status).not.toBe("success");
    expect(lapsed.location ?? "").not.toContain("/find-order");
    expect(await accountState(account.name)).toMatchObject({ balanceCents: 5_000, orders: [] });

    // The page now shows the coupon as not applying and the full price; that is what is charged.
    const again = await shownCart();
    expect(again.checkout.total).toBe(10);
    const paid = await checkOut(again, { paymentMethod: "balance" });
    expect(paid.toast?.type, JSON.stringify(paid.data ?? paid.toast)).toBe("success");
    expect((await accountState(account.name)).balanceCents).toBe(4_000);
  });

  it("the hosted gateway asks the shown total after the coupon", async () => {
    await signedInCart(0);
    await applyCoupon(await couponOf(10));
    const shown = await shownCart();
    const hosted = await checkOut(shown, { paymentMethod: "sandbox" });
    const [payment] = await page.db
      .select()
      .from(payments)
      .where(eq(payments.id, hosted.location!.split("/").at(-1)!));
    expect(payment.amountCents).toBe(900);
  });

  it("a coupon applied before a sign-out does not come back at the next sign-in: the shown full price is charged", async () => {
    const account = await signedInCart(5_000);
    await applyCoupon(await couponOf(10));
    expect((await shownCart()).checkout.total).toBe(9);
    await page.post(logoutPage, "/logout", {});
    expect(page.jar.has("coupon")).toBe(false);
    await signIn(account);
    const shown = await shownCart();
    expect(shown.checkout.coupon).toBeNull();
    expect(shown.checkout.total).toBe(10);
    await checkOut(shown, { paymentMethod: "balance" });
    expect((await accountState(account.name)).balanceCents).toBe(4_000);
  });

  it("a guest's coupon ends at the sign-in: the account's cart shows and charges the full price", async () => {
    page.jar.clear();
    const listing = await createListing(page.db, { title: "Guest Couponed", priceCents: 1_000, stock: 10 });
    const account = await accountWithBalance(5_000);
    await page.post(cartPage, "/cart", addFields(listing.optionId, 1));
    await applyCoupon(await couponOf(10));
    expect((await shownCart()).checkout.total).toBe(9);
    await signIn(account);
    const shown = await shownCart();
    expect(shown.checkout.total).toBe(10);
    await checkOut(shown, { paymentMethod: "balance" });
    const state = await accountState(account.name);
    expect(state.orders.map((order) => order.priceCents)).toEqual([1_000]);
  });
});
