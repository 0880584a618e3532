import AxeBuilder from "@axe-core/playwright";
import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { escapeRegExp, readMailTo } from "../support/e2e-mail";

/*
 * Journeys 3 (guest checkout: email, human check, payment method, message -> payment page -> paid ->
 * /find-order shows the credentials -> the order mail arrives) and 7 (a customer pays from the
 * balance), through the cart panel with JS on and off. Payments go through the sandbox gateway.
 */

type Envelope<T> = { success: boolean; message: string; payload: T };
type Product = { _id: string; title: string; fullFillmode: "auto" | "manual"; minQuantity: number };
type Option = {
  _id: string;
  title: string;
  availableStock: number;
  subOptions: { title: string; duration: number; price: number }[];
};

/** The builtin human check accepts a token 2 s after it was issued; a person is never that quick. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;
const usd = (amount: number) => `$${amount.toFixed(2)}`;

async function payload<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as Envelope<T>).payload;
}

let counter = 0;
function uniqueName(prefix: string, testInfo: TestInfo): string {
  counter++;
  return `${prefix}_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
}

/** An automatically delivered plan with stock, from a product without a quantity minimum. */
async function autoPlan(request: APIRequestContext) {
  const products = await payload<Product[]>(request, "/v1/product/read");
  for (const product of products.filter(
    (candidate) => candidate.fullFillmode === "auto" && candidate.minQuantity === 1,
  )) {
    const options = await payload<Option[]>(request, `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 3 && candidate.subOptions.length > 0);
    if (option) return { product, option, duration: option.subOptions[0] };
  }
  throw new Error("the demo catalogue has no automatic plan with stock");
}

type Plan = Awaited<ReturnType<typeof autoPlan>>;

/** An automatically delivered plan of another product than `other`'s, with stock. */
async function anotherAutoPlan(request: APIRequestContext, other: Plan): Promise<Plan> {
  const products = await payload<Product[]>(request, "/v1/product/read");
  for (const product of products.filter(
    (candidate) =>
      candidate.fullFillmode === "auto" && candidate.minQuantity === 1 && candidate._id !== other.product._id,
  )) {
    const options = await payload<Option[]>(request, `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 3 && candidate.subOptions.length > 0);
    if (option) return { product, option, duration: option.subOptions[0] };
  }
  throw new Error("the demo catalogue has only one automatic plan with stock");
}

async function addToCart(page: Page, plan: Plan) {
  await page.goto(`/shop/${plan.product._id}?option=${plan.option._id}`);
  const dialog = page.getByRole("dialog", { name: plan.product.title });
  await dialog.getByRole("radio", { name: new RegExp(`^${escapeRegExp(plan.duration.title)}`) }).check();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/shop\?cart=open$/);
  return Date.now();
}

function cartPanel(page: Page) {
  return page.getByRole("dialog", { name: "Your Cart" });
}

/** Waits until the human-check token rendered at `renderedAt` is old enough to be accepted. */
async function letHumanCheckMature(page: Page, renderedAt: number) {
  const wait = HUMAN_CHECK_MIN_AGE_MS - (Date.now() - renderedAt);
  if (wait > 0) await page.waitForTimeout(wait);
}

test("a guest checks out through the sandbox and gets the credentials and the order mail", async ({
  page,
  request,
}, testInfo) => {
  const plan = await autoPlan(request);
  const renderedAt = await addToCart(page, plan);
  const panel = cartPanel(page);
  const email = `${uniqueName("guest", testInfo)}@example.com`;

  // Guests choose among the enabled gateways, never the balance; the first enabled one is chosen.
  await expect(panel.getByRole("radio", { name: "Balance" })).toHaveCount(0);
  const sandbox = panel.getByRole("radio", { name: /Sandbox/ });
  await expect(sandbox).toBeChecked();
  await expect(panel.getByRole("link", { name: "Sign In" })).toBeVisible();
  await expect(panel.getByRole("link", { name: "Create Account" })).toBeVisible();
  await expect(panel.getByText("check your email inbox or spam folder")).toBeVisible();

  await panel.getByLabel("Email Address").fill(email);
  await panel.getByLabel("Message to Admin").fill("Please deliver quickly.");
  await sandbox.check();
  await letHumanCheckMature(page, renderedAt);
  await panel.getByRole("button", { name: `Checkout ${usd(plan.duration.price)}` }).click();

  await expect(page).toHaveURL(/\/pay\/sandbox\/[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId("sandbox-amount")).toHaveText(usd(plan.duration.price));
  await page.getByRole("button", { name: /^Pay / }).click();

  await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
  const orderId = new URL(page.url()).searchParams.get("id")!;
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  const card = page.getByTestId("order-product");
  await expect(card.getByRole("heading", { name: plan.product.title })).toBeVisible();
  expect((await card.getByRole("textbox", { name: "Username" }).first().inputValue()).length).toBeGreaterThan(0);
  expect((await card.getByRole("textbox", { name: "Password" }).first().inputValue()).length).toBeGreaterThan(0);
  // The cart was emptied, and the guest was not signed in by the checkout.
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await expect(page.getByRole("banner").getByRole("link", { name: "Sign In" })).toBeVisible();

  const mail = await readMailTo(email, /Your order/);
  expect(mail).toContain(`/find-order?id=${orderId}`);
  // An auto-created account is told how to set its password.
  expect(mail).toContain("/forgot");
});

test("a bad email is refused with 'Invalid email' and nothing is created", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  const plan = await autoPlan(request);
  await addToCart(page, plan);
  const panel = cartPanel(page);
  // Accepted by the browser's own email check, refused by the store's.
  await panel.getByLabel("Email Address").fill("buyer@localhost");
  await panel.getByRole("button", { name: /^Checkout / }).click();
  // Without JS the refused post renders the /cart page with the same form and its errors.
  const form = javaScriptEnabled ? cartPanel(page) : page.getByRole("main");
  await expect(form.getByText("Invalid email")).toBeVisible();
  await expect(form.getByLabel("Email Address")).toHaveValue("buyer@localhost");
  await expect(page.getByTestId("cart-count")).toHaveText("1");
});

test("an email that already has an account is told to sign in", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  const username = uniqueName("taken", testInfo);
  const email = `${username}@example.com`;
  const password = `correct horse ${username}`;
  const registered = await request.post("/v1/user/register", {
    data: { username, email, password, password2: password },
  });
  expect(registered.ok()).toBe(true);

  const plan = await autoPlan(request);
  const renderedAt = await addToCart(page, plan);
  const panel = cartPanel(page);
  await panel.getByLabel("Email Address").fill(email);
  await letHumanCheckMature(page, renderedAt);
  await panel.getByRole("button", { name: /^Checkout / }).click();

  const form = javaScriptEnabled ? cartPanel(page) : page.getByRole("main");
  await expect(form.getByRole("alert")).toContainText("An account with this email already exists");
  await expect(form.getByRole("link", { name: "Sign In" }).first()).toHaveAttribute("href", /^\/login\?redirectTo=/);
  await expect(page.getByTestId("cart-count")).toHaveText("1");
});

test("an unknown coupon shows the server's message; an empty one resets the price", async ({ page, request }) => {
  const plan = await autoPlan(request);
  await addToCart(page, plan);
  const panel = cartPanel(page);
  const checkout = panel.getByRole("button", { name: /^Checkout / });
  await expect(checkout).toHaveText(`Checkout ${usd(plan.duration.price)}`);

  await panel.getByLabel("Coupon Code").fill("NO-SUCH-COUPON");
  await panel.getByRole("button", { name: "Apply coupon" }).click();
  await expect(cartPanel(page).getByRole("alert").filter({ hasText: "Invalid coupon code" })).toBeVisible();
  await expect(cartPanel(page).getByRole("button", { name: /^Checkout / })).toHaveText(
    `Checkout ${usd(plan.duration.price)}`,
  );

  await cartPanel(page).getByLabel("Coupon Code").fill("");
  await cartPanel(page).getByRole("button", { name: "Apply coupon" }).click();
  await expect(cartPanel(page).getByRole("status").filter({ hasText: "Coupon removed" })).toBeVisible();
  await expect(cartPanel(page).getByTestId("coupon-applied")).toHaveCount(0);
});

test("a bad code after WELCOME10 says it was not applied and that WELCOME10 still counts (390 px)", async ({
  page,
  request,
}) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const plan = await autoPlan(request);
  await addToCart(page, plan);
  await cartPanel(page).getByLabel("Coupon Code").fill("WELCOME10");
  await cartPanel(page).getByRole("button", { name: "Apply coupon" }).click();
  await expect(cartPanel(page).getByTestId("coupon-applied")).toContainText("Coupon WELCOME10 applied");

  await cartPanel(page).getByLabel("Coupon Code").fill("NO-SUCH-COUPON");
  await cartPanel(page).getByRole("button", { name: "Apply coupon" }).click();
  await expect(cartPanel(page).getByRole("alert")).toHaveText(
    "Coupon NO-SUCH-COUPON was not applied: Invalid coupon code. WELCOME10 still applies.",
  );
  await expect(cartPanel(page).getByTestId("coupon-applied")).toContainText("Coupon WELCOME10 applied");
  const cents = Math.round(plan.duration.price * 100);
  await expect(cartPanel(page).getByRole("button", { name: /^Checkout / })).toHaveText(
    `Checkout ${usd((cents - Math.round(cents / 10)) / 100)}`,
  );
});

async function signIn(page: Page, username: string, password: string) {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

async function newCustomer(request: APIRequestContext, testInfo: TestInfo) {
  const username = uniqueName("cust", testInfo);
  const password = `correct horse ${username}`;
  const registered = await request.post("/v1/user/register", {
    data: { username, email: `${username}@example.com`, password, password2: password },
  });
  expect(registered.ok()).toBe(true);
  const { token } = ((await registered.json()) as Envelope<{ token: string }>).payload;
  return { username, password, token };
}

test("a signed-in customer checks out without email or human check", async ({ page, request }, testInfo) => {
  const customer = await newCustomer(request, testInfo);
  const plan = await autoPlan(request);
  await signIn(page, customer.username, customer.password);
  await addToCart(page, plan);

  const panel = cartPanel(page);
  await expect(panel.getByLabel("Email Address")).toHaveCount(0);
  await expect(panel.getByRole("radio", { name: "Balance" })).toHaveCount(1);
  await panel.getByRole("radio", { name: /Sandbox/ }).check();
  await panel.getByLabel("Message to Admin").fill("Thanks!");
  await panel.getByRole("button", { name: `Checkout ${usd(plan.duration.price)}` }).click();

  await expect(page).toHaveURL(/\/pay\/sandbox\/[A-Za-z0-9_-]{22}$/);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("three simultaneous posts of one rendered checkout form make one order", async ({ page, request }, testInfo) => {
  const customer = await newCustomer(request, testInfo);
  const plan = await autoPlan(request);
  await signIn(page, customer.username, customer.password);
  await addToCart(page, plan);

  const key = cartPanel(page).locator('input[name="idempotencyKey"]');
  const renderedKey = await key.inputValue();
  expect(renderedKey).toMatch(/^[0-9a-f-]{36}$/);
  await page.reload();
  // One key per render: a new page is a new checkout.
  expect(await key.inputValue()).not.toBe(renderedKey);
  const form = {
    intent: "checkout",
    redirectTo: "/shop",
    idempotencyKey: await key.inputValue(),
    shownCart: await cartPanel(page).locator('input[name="shownCart"]').inputValue(),
    paymentMethod: "sandbox",
    message: "",
  };
  const answers = await Promise.all(
    Array.from({ length: 3 }, () => page.request.post("/cart", { form, maxRedirects: 0 })),
  );
  const locations = answers.map((answer) => answer.headers().location);
  expect(locations[0]).toMatch(/\/pay\/sandbox\/[A-Za-z0-9_-]{22}$/);
  expect(locations).toEqual([locations[0], locations[0], locations[0]]);

  const listed = await request.post("/v1/order/read", {
    data: { page: 1, status: "pending" },
    headers: { authorization: `Bearer ${customer.token}` },
  });
  expect(((await listed.json()) as Envelope<{ records: unknown[] }>).payload.records).toHaveLength(1);
});

test("a customer pays from the balance and lands on the delivered order", async ({ page, request }, testInfo) => {
  const { username, password, token } = await newCustomer(request, testInfo);
  const plan = await autoPlan(request);

  // Credit the balance the way a customer would: a top-up paid in the sandbox.
  const topUp = await request.post("/v1/balance/create", {
    data: { paymentMethod: "sandbox", balance: Math.ceil(plan.duration.price) + 5 },
    headers: { authorization: `Bearer ${token}` },
  });
  expect(topUp.ok()).toBe(true);
  const { paymentUrl } = ((await topUp.json()) as Envelope<{ paymentUrl: string }>).payload;
  // The sandbox returns to /balance, which is the signed-in customer's page.
  await signIn(page, username, password);
  await page.goto(new URL(paymentUrl).pathname);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page).toHaveURL(/\/balance/);

  await addToCart(page, plan);
  const panel = cartPanel(page);
  await panel.getByRole("radio", { name: "Balance" }).check();
  await panel.getByRole("button", { name: `Checkout ${usd(plan.duration.price)}` }).click();

  await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  expect((await page.getByRole("textbox", { name: "Password" }).first().inputValue()).length).toBeGreaterThan(0);
});

test("issue 36 at 390 px: a guest's unpaid order cancelled after sign-in never joins the customer's checkout", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const { username, password, token } = await newCustomer(request, testInfo);
  const auth = { authorization: `Bearer ${token}` };
  const topUp = await request.post("/v1/balance/create", {
    data: { paymentMethod: "sandbox", balance: 50 },
    headers: auth,
  });
  const { paymentUrl: topUpUrl } = ((await topUp.json()) as Envelope<{ paymentUrl: string }>).payload;
  expect((await request.post(`/v1/sandbox/payments/${topUpUrl.split("/").pop()}/pay`)).ok()).toBe(true);
  const first = await autoPlan(request);
  const second = await anotherAutoPlan(request, first);

  // 1. As a guest, two of the first plan, checked out with the sandbox: the payment page opens.
  await addToCart(page, first);
  const renderedAt = await addToCart(page, first);
  await cartPanel(page)
    .getByLabel("Email Address")
    .fill(`${uniqueName("guest36", testInfo)}@example.com`);
  await cartPanel(page)
    .getByRole("radio", { name: /Sandbox/ })
    .check();
  await letHumanCheckMature(page, renderedAt);
  await cartPanel(page)
    .getByRole("button", { name: `Checkout ${usd(2 * first.duration.price)}` })
    .click();
  await expect(page).toHaveURL(/\/pay\/sandbox\/[A-Za-z0-9_-]{22}$/);
  const guestPayment = page.url();
  await expect(page.getByTestId("sandbox-line")).toHaveText([usd(2 * first.duration.price)]);

  // 2-3. Signs in, goes back to the payment page and cancels it.
  await signIn(page, username, password);
  await page.goto(guestPayment);
  await page.getByRole("button", { name: "Cancel" }).click();
  await expect(page).toHaveURL(/\/shop\?cart=open$/);

  // 4. The customer's cart is empty; one of the second plan makes it that one line.
  await page.goto("/cart");
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
  await addToCart(page, second);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toHaveCount(1);
  await expect(page.getByTestId("cart-line")).toContainText(second.product.title);

  // 5. Paid from the balance: exactly the price shown, and the order holds that one line.
  await page.getByRole("main").getByRole("radio", { name: "Balance" }).check();
  await page
    .getByRole("main")
    .getByRole("button", { name: `Checkout ${usd(second.duration.price)}` })
    .click();
  await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
  await expect(page.getByTestId("order-product")).toHaveCount(1);
  await expect(page.getByTestId("order-product").getByRole("heading", { name: second.product.title })).toBeVisible();
  const profile = await request.get("/v1/user/profile", { headers: auth });
  const { balance } = ((await profile.json()) as Envelope<{ balance: number }>).payload;
  expect(balance).toBeCloseTo(50 - second.duration.price, 2);
});

test("the cart panel's checkout has no serious or critical accessibility violations", async ({
  browser,
  baseURL,
  request,
  javaScriptEnabled,
}) => {
  const plan = await autoPlan(request);
  // axe runs as a script in the page, so the no-JS view is checked by blocking the page's own scripts.
  const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
  const page = await context.newPage();
  if (!javaScriptEnabled) await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
  await addToCart(page, plan);
  await page.waitForLoadState("networkidle");
  await expect(cartPanel(page).getByRole("button", { name: /^Checkout / })).toBeVisible();
  const results = await new AxeBuilder({ page })
    .include('[role="dialog"]')
    .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
    .analyze();
  const blocking = results.violations
    .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
    .map((violation) => ({
      rule: violation.id,
      help: violation.help,
      targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
    }));
  await context.close();
  expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
});
