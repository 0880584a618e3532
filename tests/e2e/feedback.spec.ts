import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { call } from "../support/e2e-api";

/*
 * Journey 13: leave stars and a message for a delivered product on /find-order, read it on /feedback, filter
 * by the product and page through the demo feedback; a guest is told to register. JS on and off, phone and desktop.
 */

type Product = { _id: string; title: string; fullFillmode: string; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { duration: number; price: number }[] };

let counter = 0;
async function newAccount(request: APIRequestContext, testInfo: TestInfo) {
  counter++;
  const username = `fb_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  return { username, password, token };
}

async function signIn(page: Page, account: { username: string; password: string }) {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(account.username);
  await page.getByLabel("Password", { exact: true }).fill(account.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** A sandbox order of an auto-delivered plan, paid on the sandbox page in this browser: lands on /find-order. */
async function buyAndPay(page: Page, request: APIRequestContext, token: string) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  for (const product of products.filter(
    (candidate) => candidate.fullFillmode === "auto" && candidate.minQuantity === 1,
  )) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 3 && candidate.subOptions.length > 0);
    if (!option) continue;
    await call(
      request,
      "POST",
      "/v1/cart/add",
      { optionId: option._id, duration: option.subOptions[0].duration, quantity: 1 },
      token,
    );
    const created = await call<{ orderId: string; paymentUrl: string }>(
      request,
      "POST",
      "/v1/order/create",
      { paymentMethod: "sandbox", coupon: "", message: "", isGuest: false },
      token,
    );
    await page.goto(new URL(created.paymentUrl).pathname);
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${created.orderId}$`));
    await expect(page.getByTestId("order-status")).toHaveText("Completed");
    return { orderId: created.orderId, product };
  }
  throw new Error("the demo catalogue has no auto plan with stock");
}

async function noHorizontalOverflow(page: Page, javaScriptEnabled: boolean) {
  if (!javaScriptEnabled) return; // measuring needs script in the page; the markup is the same
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, page.url()).toBeLessThanOrEqual(0);
}

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`a buyer rates a delivered product on /find-order and finds it on /feedback (${viewport.name})`, async ({
    page,
    request,
    javaScriptEnabled,
  }, testInfo) => {
    test.setTimeout(60_000);
    await page.setViewportSize(viewport);
    const account = await newAccount(request, testInfo);
    await signIn(page, account);
    const { orderId, product } = await buyAndPay(page, request, account.token);

    const card = page.getByTestId("order-product");
    await card.getByText("Leave Feedback").click();
    const form = card.locator("form").filter({ has: page.getByRole("button", { name: "Send Feedback" }) });
    await expect(form.getByRole("group", { name: `Your rating of ${product.title}` })).toBeVisible();
    await noHorizontalOverflow(page, javaScriptEnabled);
    // A click on the fifth star, then the keyboard: the arrow key moves the choice down to four.
    await form.locator("label").filter({ hasText: "5 stars" }).click();
    await expect(form.getByRole("radio", { name: "5 stars" })).toBeChecked();
    await form.getByRole("radio", { name: "5 stars" }).focus();
    await page.keyboard.press("ArrowLeft");
    await expect(form.getByRole("radio", { name: "4 stars" })).toBeChecked();
    const message = `Worked at once <b>really</b> ${testInfo.project.name} ${viewport.name} ${Date.now()}`;
    await form.getByLabel("Your feedback").fill(message);
    await form.getByRole("button", { name: "Send Feedback" }).click();

    await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${orderId}$`));
    await expect(page.getByRole("status").filter({ hasText: "Thank you for your feedback!" })).toBeVisible();
    await expect(card.getByText("Edit your feedback")).toBeVisible();
    await expect(card.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();

    await page.goto("/feedback");
    await expect(page.getByRole("heading", { level: 1, name: "What Customers Say" })).toBeVisible();
    const mine = page.getByTestId("feedback-card").filter({ hasText: message });
    await expect(mine).toHaveCount(1);
    // Shown as text: the markup in the message is not rendered.
    await expect(mine.locator("b")).toHaveCount(0);
    await expect(mine.getByRole("img", { name: "4 out of 5 stars" })).toBeVisible();
    await noHorizontalOverflow(page, javaScriptEnabled);

    // Filter by the product: with JS the choice applies at once, without it the Filter button sends the GET form.
    await page.getByLabel("Filter Product").selectOption(product._id);
    if (!javaScriptEnabled) await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(new RegExp(`/feedback\\?product=${product._id}$`));
    await expect(page.getByTestId("feedback-card").filter({ hasText: message })).toHaveCount(1);
    const titles = await page.getByTestId("feedback-product").allTextContents();
    expect(new Set(titles).size).toBe(1);
    await expect(page.getByTestId("feedback-summary")).toContainText("out of 5");

    // Page through everything.
    await page.getByRole("link", { name: "Show all products" }).click();
    await expect(page).toHaveURL(/\/feedback$/);
    await expect(page.getByTestId("feedback-card")).toHaveCount(12);
    await expect(page.getByText(/^Page 1 of \d+$/)).toBeVisible();
    await page.getByRole("link", { name: "Next" }).click();
    await expect(page).toHaveURL(/\/feedback\?page=2$/);
    await expect(page.getByText(/^Page 2 of \d+$/)).toBeVisible();
    await expect(page.getByTestId("feedback-card").filter({ hasText: message })).toHaveCount(0);
    await page.getByRole("link", { name: "Previous" }).click();
    await expect(page).toHaveURL(/\/feedback$/);
    await expect(page.getByTestId("feedback-card").filter({ hasText: message })).toHaveCount(1);
  });
}

test("a guest looking at a delivered order is told 'Please Register to leave feedback'", async ({
  page,
  request,
}, testInfo) => {
  const account = await newAccount(request, testInfo);
  await buyAndPay(page, request, account.token);
  const card = page.getByTestId("order-product");
  await expect(card.getByTestId("feedback-register")).toContainText("Please Register to leave feedback");
  await expect(card.getByText("Leave Feedback", { exact: true })).toHaveCount(0);
  await card.getByTestId("feedback-register").getByRole("link", { name: "Create Account" }).click();
  await expect(page).toHaveURL(/\/signup\?redirectTo=%2Ffind-order%3Fid%3D/);
});

test("the product modal in the shop shows the average rating and links to its feedback", async ({ page }) => {
  await page.goto("/shop");
  await page
    .getByRole("link", { name: /Streamora Premium Private/ })
    .first()
    .click();
  const rating = page.getByTestId("product-rating");
  await expect(rating).toContainText(/\d\.\d out of 5 \(\d+ reviews\)/);
  await rating.getByRole("link", { name: "Read the feedback" }).click();
  await expect(page).toHaveURL(/\/feedback\?product=/);
  await expect(page.getByTestId("feedback-product").first()).toHaveText("Streamora Premium Private");
});
