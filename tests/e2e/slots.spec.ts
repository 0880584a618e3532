import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { call } from "../support/e2e-api";

/*
 * Journey 15 with JS on and off, on a phone (390 px) and a desktop: the dashboard's slot machine, a spin with
 * its result and coupon, a second spin that day refused with the spec's message, and the coupon taking its
 * discount off a checkout paid from the balance. The odds and races are proven in tests/unit and tests/api.
 */

const NO_SPINS = "No spins available! You get 1 free spin per day (max 3 accumulated).";
const usd = (amount: number) => `$${amount.toFixed(2)}`;

type Product = { _id: string; title: string; fullFillmode: "auto" | "manual"; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { title: string; duration: number; price: number }[] };
type Spin = { spinId: string; symbols: string[]; discount: number; couponCode: string };

let counter = 0;
async function newCustomer(request: APIRequestContext, testInfo: TestInfo) {
  counter++;
  const username = `slots_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  return { username, password, token };
}

/** A paid sandbox top-up, as the customer's own would be. */
async function creditBalance(request: APIRequestContext, token: string, balance: number) {
  const { paymentUrl } = await call<{ paymentUrl: string }>(
    request,
    "POST",
    "/v1/balance/create",
    { paymentMethod: "sandbox", balance },
    token,
  );
  await call(request, "POST", `/v1/sandbox/payments/${new URL(paymentUrl).pathname.split("/").pop()}/pay`, {});
}

async function signIn(page: Page, customer: { username: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(customer.username);
  await page.getByLabel("Password", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The automatic plan with the most stock, so the suite's many orders never run it dry. */
async function roomiestPlan(request: APIRequestContext) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  const plans: { product: Product; option: Option; duration: Option["subOptions"][number] }[] = [];
  for (const product of products.filter((item) => item.fullFillmode === "auto" && item.minQuantity === 1)) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    for (const option of options.filter((candidate) => candidate.subOptions.length > 0)) {
      plans.push({ product, option, duration: option.subOptions[0] });
    }
  }
  return plans.sort((a, b) => b.option.availableStock - a.option.availableStock)[0];
}

async function expectNoSideways(page: Page) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
]) {
  test(`journey 15 on a ${viewport.name}: spin, see the coupon, a second spin is refused, the coupon discounts the checkout`, async ({
    page,
    context,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const customer = await newCustomer(request, testInfo);
    await creditBalance(request, customer.token, 200);
    await signIn(page, customer);

    const slotsLink = page.getByRole("link", { name: "Lucky Slots: 1 spin available" });
    await expect(slotsLink).toBeVisible();
    await expect(page.getByTestId("spin-badge")).toHaveText("1");
    await expectNoSideways(page);
    await slotsLink.click();
    await expect(page).toHaveURL(/\/slots$/);
    await expect(page.getByRole("heading", { name: "Lucky Slots", level: 1 })).toBeVisible();
    await expect(page.getByTestId("spins-available")).toHaveText("1 of 3");
    await expect(page.getByText("No unused coupons. Spin to win one.")).toBeVisible();
    await expectNoSideways(page);

    // A second tab still showing the spin button, to try a second spin the same day.
    const staleTab = await context.newPage();
    await staleTab.setViewportSize(viewport);
    await staleTab.goto("/slots");

    const clickedAt = Date.now();
    await page.getByRole("button", { name: "Spin" }).click();
    const dialog = page.getByRole("dialog", { name: /^(Jackpot! 30|Two of a kind: 15|You won 10)% off$/ });
    if (javaScriptEnabled) {
      await expect(page.getByRole("img", { name: "The reels are spinning" })).toBeVisible();
      await expect(page.getByRole("button", { name: "Spinning…" })).toBeDisabled();
      await expect(dialog).toBeVisible({ timeout: 8_000 });
      // The last reel stops at 4000 ms after the click; the dialog comes after it.
      expect(Date.now() - clickedAt).toBeGreaterThanOrEqual(3_900);
    } else {
      await expect(dialog).toBeVisible();
    }
    await expect(page).toHaveURL(/\/slots\?spin=[A-Za-z0-9_-]{22}$/);
    const spinId = new URL(page.url()).searchParams.get("spin")!;
    const drawn = await call<Spin>(request, "GET", `/v1/spinwheel/spin/${spinId}`, undefined, customer.token);

    // The reels and the dialog show exactly what the server drew.
    await expect(page.getByTestId("reel")).toHaveCount(3);
    for (const [reel, symbol] of drawn.symbols.entries()) {
      await expect(page.getByTestId("reel").nth(reel)).toHaveAttribute("data-symbol", symbol);
    }
    await expect(dialog.getByTestId("spin-discount")).toHaveText(`${drawn.discount}% off`);
    await expect(dialog.getByRole("textbox", { name: "Coupon code" })).toHaveValue(drawn.couponCode);
    expect(drawn.couponCode).toMatch(/^SLOT-[2-9A-HJ-NP-Z]{10}$/);
    await expect(dialog.getByTestId("spins-left")).toHaveText("Spins left: 0");
    if (javaScriptEnabled) {
      await expect(dialog.getByRole("button", { name: "Copy coupon code" })).toBeVisible();
    }
    await expectNoSideways(page);

    await dialog.getByRole("link", { name: "Close" }).click();
    await expect(page).toHaveURL(/\/slots$/);
    await expect(page.getByRole("button", { name: "Spin" })).toBeDisabled();
    await expect(page.getByTestId("no-spins")).toHaveText(NO_SPINS);
    await expect(page.getByRole("textbox", { name: `${drawn.discount}% off coupon` })).toHaveValue(drawn.couponCode);

    // The stale tab's button is still enabled: the server refuses the second spin with the spec's message.
    await staleTab.getByRole("button", { name: "Spin" }).click();
    await expect(staleTab.getByRole("alert").filter({ hasText: NO_SPINS }).first()).toBeVisible();
    await expect(staleTab.getByTestId("spins-available")).toHaveText("0 of 3");
    await staleTab.close();

    await page.goto("/dashboard");
    await expect(page.getByRole("link", { name: "Lucky Slots: 0 spins available" })).toBeVisible();

    // Use the coupon at checkout: one click in the cart panel, then pay from the balance.
    const plan = await roomiestPlan(request);
    await page.goto(`/shop/${plan.product._id}?option=${plan.option._id}`);
    const productDialog = page.getByRole("dialog", { name: plan.product.title });
    const duration = plan.duration.title.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
    await productDialog.getByRole("radio", { name: new RegExp(`^${duration}`) }).check();
    await productDialog.getByRole("button", { name: "Add to Cart" }).click();
    await expect(page).toHaveURL(/\/shop\?cart=open$/);
    const panel = page.getByRole("dialog", { name: "Your Cart" });
    await panel.getByRole("button", { name: `Apply coupon ${drawn.couponCode}, ${drawn.discount}% off` }).click();
    const cents = Math.round(plan.duration.price * 100);
    const discounted = (cents - Math.round((cents * drawn.discount) / 100)) / 100;
    await expect(panel.getByTestId("coupon-applied")).toContainText(drawn.couponCode);
    await panel.getByRole("radio", { name: "Balance" }).check();
    await panel.getByRole("button", { name: `Checkout ${usd(discounted)}` }).click();
    await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
    await expect(page.getByTestId("order-status")).toHaveText("Completed");
    const orderId = new URL(page.url()).searchParams.get("id")!;
    const order = await call<{ price: number }>(request, "GET", `/v1/order/read/${orderId}`, undefined, customer.token);
    expect(order.price).toBe(discounted);

    // Used: no longer offered.
    await page.goto("/slots");
    await expect(page.getByText("No unused coupons. Spin to win one.")).toBeVisible();
  });
}

test("with reduced motion the result shows at once, without the spin", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(!javaScriptEnabled, "without JavaScript nothing moves anyway");
  const customer = await newCustomer(request, testInfo);
  await signIn(page, customer);
  await page.emulateMedia({ reducedMotion: "reduce" });
  await page.goto("/slots");
  const clickedAt = Date.now();
  await page.getByRole("button", { name: "Spin" }).click();
  await expect(page.getByRole("dialog", { name: /% off$/ })).toBeVisible();
  expect(Date.now() - clickedAt).toBeLessThan(2_500);
});

test("the slots page needs an account, and a spin id that is not yours is not found", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/slots");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Fslots$/);

  const owner = await newCustomer(request, testInfo);
  const spun = await call<Spin>(request, "POST", "/v1/spinwheel/spin", {}, owner.token);
  const stranger = await newCustomer(request, testInfo);
  await signIn(page, stranger);
  const answer = await page.goto(`/slots?spin=${spun.spinId}`);
  expect(answer?.status()).toBe(404);
});

test("the slots page and its result dialog have no serious or critical accessibility violations", async ({
  browser,
  baseURL,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const customer = await newCustomer(request, testInfo);
  const spun = await call<Spin>(request, "POST", "/v1/spinwheel/spin", {}, customer.token);
  // axe runs as a script in the page, so the no-JS view is checked by blocking the page's own scripts.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
  const page = await context.newPage();
  if (!javaScriptEnabled) await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
  await signIn(page, customer);
  for (const path of ["/slots", `/slots?spin=${spun.spinId}`]) {
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { name: "Lucky Slots", level: 1 })).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    const blocking = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({ rule: violation.id, targets: violation.nodes.slice(0, 5).map((node) => node.target) }));
    expect(blocking, `${path}: ${JSON.stringify(blocking, null, 2)}`).toEqual([]);
  }
  await context.close();
});
