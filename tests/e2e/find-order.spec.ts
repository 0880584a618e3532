import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { blockingViolations } from "../support/e2e-axe";

/*
 * Journey 10 (find an order by id, copy or select the credentials, contact support) and the sandbox
 * gateway's payment page, JS on and off. Orders are placed through /v1 here; checkout through the
 * cart panel is tests/e2e/checkout.spec.ts.
 */

type Product = {
  _id: string;
  title: string;
  fullFillmode: "auto" | "manual";
  minQuantity: number;
  maxQuantity: number | null;
};
type Option = { _id: string; title: string; availableStock: number; subOptions: { duration: number; price: number }[] };

let accountCounter = 0;
async function newCustomer(request: APIRequestContext, testInfo: TestInfo): Promise<string> {
  accountCounter++;
  const username = `fo_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${accountCounter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  return token;
}

/** An automatically delivered plan with enough stock for a test, and its first warranty duration. */
async function autoPlan(request: APIRequestContext, fulfilMode: "auto" | "manual" = "auto") {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  for (const product of products.filter(
    (candidate) => candidate.fullFillmode === fulfilMode && candidate.minQuantity === 1,
  )) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 2 && candidate.subOptions.length > 0);
    if (option) return { product, option, duration: option.subOptions[0] };
  }
  throw new Error(`the demo catalogue has no ${fulfilMode} plan with stock`);
}

/** A sandbox order placed through /v1 by a fresh customer: its id and payment page. */
async function sandboxOrder(request: APIRequestContext, testInfo: TestInfo, fulfilMode: "auto" | "manual" = "auto") {
  const token = await newCustomer(request, testInfo);
  const plan = await autoPlan(request, fulfilMode);
  await call(
    request,
    "POST",
    "/v1/cart/add",
    { optionId: plan.option._id, duration: plan.duration.duration, quantity: 1 },
    token,
  );
  const created = await call<{ orderId: string; paymentUrl?: string }>(
    request,
    "POST",
    "/v1/order/create",
    { paymentMethod: "sandbox", coupon: "", message: "", isGuest: false },
    token,
  );
  expect(created.paymentUrl).toBeTruthy();
  return { ...created, paymentPath: new URL(created.paymentUrl!).pathname, plan };
}

async function payInSandbox(page: Page, paymentPath: string, price: number) {
  await page.goto(paymentPath);
  await expect(page.getByRole("heading", { name: "Complete your payment" })).toBeVisible();
  await expect(page.getByTestId("sandbox-amount")).toHaveText(`$${price.toFixed(2)}`);
  await page.getByRole("button", { name: /^Pay / }).click();
}

test("an unknown or malformed order id shows 'Order Not Found!'", async ({ page }) => {
  await page.goto("/find-order");
  await expect(page.getByRole("heading", { level: 1, name: "Find Order" })).toBeVisible();
  await page.getByLabel("Order ID").fill("AAAAAAAAAAAAAAAAAAAAAA");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/\/find-order\?id=AAAAAAAAAAAAAAAAAAAAAA$/);
  await expect(page.getByRole("alert")).toHaveText("Order Not Found!");

  const response = await page.goto("/find-order?id=not-an-order");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("alert")).toHaveText("Order Not Found!");
  await expect(page.getByLabel("Order ID")).toHaveValue("not-an-order");
});

test("a pending order waits for payment; paying in the sandbox delivers the credentials", async ({
  page,
  request,
  javaScriptEnabled,
  context,
}, testInfo) => {
  const order = await sandboxOrder(request, testInfo);

  await page.goto(`/find-order?id=${order.orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");
  const card = page.getByTestId("order-product");
  await expect(card).toHaveCount(1);
  await expect(card.getByRole("heading", { name: order.plan.product.title })).toBeVisible();
  await expect(card).toContainText("Waiting for your payment");
  await expect(card.getByLabel("Username")).toHaveCount(0);

  await payInSandbox(page, order.paymentPath, order.plan.duration.price);
  await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${order.orderId}$`));
  await expect(page.getByRole("status").filter({ hasText: "Payment received" })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  // The notice is shown once, not on every later visit.
  await page.reload();
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  await expect(page.getByRole("status").filter({ hasText: "Payment received" })).toHaveCount(0);

  const delivered = page.getByTestId("order-product");
  const username = delivered.getByRole("textbox", { name: "Username" });
  const password = delivered.getByRole("textbox", { name: "Password" });
  await expect(username).toHaveCount(1);
  await expect(username).toHaveAttribute("readonly", "");
  expect((await username.inputValue()).length).toBeGreaterThan(0);
  expect((await password.inputValue()).length).toBeGreaterThan(0);
  await expect(delivered.getByText("Waiting for your payment")).toHaveCount(0);
  await expect(delivered.getByRole("link", { name: "Contact Support" })).toHaveAttribute(
    "href",
    `/support?orderId=${order.orderId}`,
  );

  if (javaScriptEnabled) {
    await context.grantPermissions(["clipboard-read", "clipboard-write"]);
    const copy = delivered.getByRole("button", { name: "Copy password" });
    await copy.click();
    await expect(delivered.getByRole("button", { name: "Password copied" })).toHaveText("Copied");
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(await password.inputValue());
    // The confirmation resets after 3 s.
    await expect(delivered.getByRole("button", { name: "Copy password" })).toHaveText("Copy", { timeout: 5_000 });
  } else {
    // Without JS there is nothing a copy button could do: the value is simply selectable.
    await expect(delivered.getByRole("button", { name: /^Copy/ })).toHaveCount(0);
  }

  // The payment page of a paid payment offers no second payment.
  await page.goto(order.paymentPath);
  await expect(page.getByTestId("sandbox-status")).toHaveText("paid");
  await expect(page.getByRole("button", { name: /^Pay / })).toHaveCount(0);
  await page.getByRole("link", { name: "View the order" }).click();
  await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${order.orderId}$`));
});

test("without JavaScript a pending order's page reloads itself until the credentials appear", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.skip(javaScriptEnabled, "with JavaScript the page re-checks by polling instead");
  const order = await sandboxOrder(request, testInfo);
  await page.goto(`/find-order?id=${order.orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");

  // The webhook lands while the customer only watches the page.
  const paymentId = order.paymentPath.split("/").pop();
  const paid = await request.post(`/v1/sandbox/payments/${paymentId}/pay`);
  expect(paid.ok()).toBe(true);

  await expect(page.getByTestId("order-status")).toHaveText("Completed", { timeout: 15_000 });
  await expect(page.getByTestId("order-product").getByRole("textbox", { name: "Username" })).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${order.orderId}&refresh=\\d+$`));
});

test("the self-reload is for pages without JavaScript only, and stops after a few minutes", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const order = await sandboxOrder(request, testInfo);
  const refresh = page.locator('meta[http-equiv="refresh"]');
  // A hydration mismatch (React logs it as an error) would mean the <noscript> upsets the page.
  const consoleErrors: string[] = [];
  page.on("console", (message) => {
    if (message.type() === "error") consoleErrors.push(message.text());
  });

  await page.goto(`/find-order?id=${order.orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("Waiting for payment");
  if (javaScriptEnabled) {
    // With scripts on, browsers read a <noscript> as text: the polling page never reloads twice over.
    await expect(refresh).toHaveCount(0);
    await expect
      .poll(() => page.evaluate(() => typeof (window as { __remixRouter?: unknown }).__remixRouter))
      .toBe("object");
    expect(consoleErrors).toEqual([]);
  } else {
    await expect(refresh).toHaveAttribute("content", `5;url=/find-order?id=${order.orderId}&refresh=1`);
  }

  await page.goto(`/find-order?id=${order.orderId}&refresh=24`);
  await expect(refresh).toHaveCount(0);
  await expect(page.getByTestId("pending-note")).toContainText("stopped checking by itself");
  await page.getByRole("link", { name: "Check again" }).click();
  await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${order.orderId}$`));
  if (!javaScriptEnabled) await expect(refresh).toHaveCount(1);
});

test("a manual-fulfilment order says it is being processed once paid", async ({ page, request }, testInfo) => {
  const order = await sandboxOrder(request, testInfo, "manual");
  await payInSandbox(page, order.paymentPath, order.plan.duration.price);
  await expect(page).toHaveURL(new RegExp(`/find-order\\?id=${order.orderId}$`));
  await expect(page.getByTestId("order-status")).toHaveText("Being processed");
  await expect(page.getByTestId("order-product")).toContainText("being processed");
});

test("cancelling in the sandbox returns to the shop with the cart open and a notice", async ({
  page,
  request,
}, testInfo) => {
  const order = await sandboxOrder(request, testInfo);
  await page.goto(order.paymentPath);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/shop\?cart=open$/);
  await expect(page.getByRole("dialog", { name: "Your Cart" }).getByText("Payment cancelled")).toBeVisible();
  await page.goto(`/find-order?id=${order.orderId}`);
  await expect(page.getByTestId("order-status")).toHaveText("Cancelled");
  await expect(page.getByTestId("order-product")).toContainText("This order was cancelled");
});

test("an unknown sandbox payment is a not-found page", async ({ page }) => {
  const response = await page.goto("/pay/sandbox/AAAAAAAAAAAAAAAAAAAAAA");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
});

test("the payment page and a delivered order have no serious or critical accessibility violations", async ({
  browser,
  baseURL,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const order = await sandboxOrder(request, testInfo);
  // axe runs as a script in the page, so the no-JS view is checked by blocking the page's own scripts.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
  const page = await context.newPage();
  if (!javaScriptEnabled) await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
  await page.goto(order.paymentPath, { waitUntil: "networkidle" });
  const onPaymentPage = await blockingViolations(page);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  await page.waitForLoadState("networkidle");
  const onOrderPage = await blockingViolations(page);
  await context.close();
  expect(onPaymentPage, JSON.stringify(onPaymentPage, null, 2)).toEqual([]);
  expect(onOrderPage, JSON.stringify(onOrderPage, null, 2)).toEqual([]);
});
