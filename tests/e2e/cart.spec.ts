import { type APIRequestContext, expect, type Page, test } from "@playwright/test";

/*
 * Journey 2 (fill a cart as a guest), with JS on and off. The cart is a signed cookie; every form
 * posts to /cart and comes back to the page with the side panel open.
 */

type Product = { _id: string; title: string; totalStock: number; minQuantity: number; maxQuantity: number | null };
type Option = {
  _id: string;
  title: string;
  availableStock: number;
  subOptions: { title: string; duration: number; price: number }[];
};

async function payload<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { payload: T }).payload;
}

const usd = (amount: number) => `$${amount.toFixed(2)}`;
const escapeRegExp = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/** Plans with a small stock (3 to 40) from products without a quantity limit, so the stock is the upper bound. */
async function smallStockPlans(request: APIRequestContext, count: number) {
  const products = await payload<Product[]>(request, "/v1/product/read");
  const plans: { product: Product; option: Option }[] = [];
  for (const product of products.filter((candidate) => candidate.minQuantity === 1 && candidate.maxQuantity === null)) {
    const options = await payload<Option[]>(request, `/v1/product/option/read/${product._id}`);
    const option = options.find(
      (candidate) => candidate.availableStock >= 3 && candidate.availableStock <= 40 && candidate.subOptions.length > 0,
    );
    if (option) plans.push({ product, option });
    if (plans.length === count) return plans;
  }
  throw new Error("the demo catalogue lacks plans with a small stock");
}

async function addToCart(page: Page, plan: { product: Product; option: Option }, quantity: number) {
  await page.goto(`/shop/${plan.product._id}?option=${plan.option._id}`);
  const dialog = page.getByRole("dialog", { name: plan.product.title });
  const duration = plan.option.subOptions[0];
  await dialog.getByRole("radio", { name: new RegExp(`^${escapeRegExp(duration.title)}`) }).check();
  await dialog.getByRole("spinbutton", { name: "Quantity" }).fill(String(quantity));
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/shop\?cart=open$/);
  return duration;
}

function cartPanel(page: Page) {
  return page.getByRole("dialog", { name: "Your Cart" });
}

test("adding a plan opens the cart panel with the line, its price and the count", async ({ page, request }) => {
  const [plan] = await smallStockPlans(request, 1);
  const duration = await addToCart(page, plan, 2);

  await expect(page.getByRole("status").filter({ hasText: "Product added to cart" })).toBeVisible();
  const panel = cartPanel(page);
  const line = panel.getByTestId("cart-line");
  await expect(line).toHaveCount(1);
  await expect(line).toContainText(plan.product.title);
  await expect(line).toContainText(plan.option.title);
  await expect(line).toContainText(duration.title);
  await expect(panel.getByTestId("cart-subtotal")).toHaveText(usd(duration.price * 2));
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  // Adding the same plan again adds to its quantity instead of a second line.
  await addToCart(page, plan, 1);
  await expect(cartPanel(page).getByTestId("cart-line")).toHaveCount(1);
  await expect(cartPanel(page).getByRole("spinbutton")).toHaveValue("3");

  await cartPanel(page).getByRole("link", { name: "Close cart" }).click();
  await expect(page).toHaveURL(/\/shop$/);
  await expect(cartPanel(page)).toHaveCount(0);
});

test("quantities change with minus, plus and the box, within bounds", async ({ page, request, javaScriptEnabled }) => {
  const [plan] = await smallStockPlans(request, 1);
  const duration = await addToCart(page, plan, 1);
  const panel = cartPanel(page);
  const box = panel.getByRole("spinbutton", { name: /^Quantity of/ });
  const minus = panel.getByRole("button", { name: /^Decrease quantity/ });
  const plus = panel.getByRole("button", { name: /^Increase quantity/ });

  await expect(box).toHaveValue("1");
  await expect(minus).toBeDisabled();
  // With JS the panel's forms are fetchers: the document is never reloaded.
  if (javaScriptEnabled) await page.evaluate(() => Object.assign(window, { panelDocument: "kept" }));
  await plus.click();
  await expect(box).toHaveValue("2");
  await expect(panel.getByTestId("cart-subtotal")).toHaveText(usd(duration.price * 2));
  await minus.click();
  await expect(box).toHaveValue("1");
  await expect(minus).toBeDisabled();

  const max = plan.option.availableStock;
  await expect(box).toHaveAttribute("max", String(max));
  await box.fill(String(max));
  if (!javaScriptEnabled) await panel.getByRole("button", { name: "Update" }).click();
  await expect(panel.getByTestId("cart-subtotal")).toHaveText(usd(duration.price * max));
  await expect(box).toHaveValue(String(max));
  await expect(plus).toBeDisabled();
  if (javaScriptEnabled)
    expect(await page.evaluate(() => (window as unknown as { panelDocument?: string }).panelDocument)).toBe("kept");

  // The server clamps too: a quantity above the stock (sent without the browser's checks) ends at the stock.
  const response = await page.request.post("/cart", {
    form: { intent: "update", optionId: plan.option._id, quantity: String(max + 5), redirectTo: "/cart" },
  });
  expect(response.ok()).toBe(true);
  await page.goto("/cart");
  await expect(page.getByRole("spinbutton", { name: /^Quantity of/ })).toHaveValue(String(max));
});

test("remove a line and clear the cart", async ({ page, request }) => {
  const [first, second] = await smallStockPlans(request, 2);
  await addToCart(page, first, 1);
  await addToCart(page, second, 1);
  const panel = cartPanel(page);
  await expect(panel.getByTestId("cart-line")).toHaveCount(2);
  await expect(page.getByTestId("cart-count")).toHaveText("2");

  await panel.getByRole("button", { name: `Remove Item ${first.product.title} ${first.option.title}` }).click();
  await expect(panel.getByTestId("cart-line")).toHaveCount(1);
  await expect(panel.getByTestId("cart-line")).toContainText(second.product.title);
  await expect(page.getByTestId("cart-count")).toHaveText("1");

  await addToCart(page, first, 1);
  await expect(cartPanel(page).getByTestId("cart-line")).toHaveCount(2);
  await cartPanel(page).getByRole("button", { name: "Clear Cart" }).click();
  await expect(cartPanel(page).getByText("Your cart is empty.")).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("/cart works as a page of its own", async ({ page, request }) => {
  const [plan] = await smallStockPlans(request, 1);
  await page.goto("/cart");
  await expect(page.getByRole("heading", { level: 1, name: "Your Cart" })).toBeVisible();
  await expect(page.getByText("Your cart is empty.")).toBeVisible();
  await addToCart(page, plan, 1);
  await page.goto("/cart");
  await expect(page.getByTestId("cart-line")).toContainText(plan.product.title);
  await page.getByRole("button", { name: /^Increase quantity/ }).click();
  await expect(page).toHaveURL(/\/cart$/);
  await expect(page.getByRole("spinbutton", { name: /^Quantity of/ })).toHaveValue("2");
});

test("a tampered cart cookie is an empty cart, not an error", async ({ page, context, baseURL }) => {
  await context.addCookies([
    {
      name: "cart",
      value: encodeURIComponent(btoa(JSON.stringify([["AAAAAAAAAAAAAAAAAAAAAA", 30, 5]]))) + ".forged",
      url: baseURL,
    },
  ]);
  const response = await page.goto("/shop?cart=open");
  expect(response?.status()).toBe(200);
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await expect(cartPanel(page).getByText("Your cart is empty.")).toBeVisible();
  const cookie = (await context.cookies()).find((candidate) => candidate.name === "cart");
  expect(cookie?.value).not.toContain("forged");
});

test("an option that no longer exists is refused with a toast that can be closed", async ({ page }) => {
  await page.goto("/shop");
  // Posted from the page's own cookie jar, as a stale product page would.
  const response = await page.request.post("/cart", {
    form: {
      intent: "add",
      optionId: "AAAAAAAAAAAAAAAAAAAAAA",
      warrantyOptionId: "AAAAAAAAAAAAAAAAAAAAAA",
      duration: "30",
      quantity: "1",
      redirectTo: "/shop",
    },
    maxRedirects: 0,
  });
  expect(response.status()).toBe(302);
  await page.goto("/shop");
  const toast = page.getByRole("alert").filter({ hasText: "This option is no longer available" });
  await expect(toast).toBeVisible();
  await expect(page.getByTestId("cart-count")).toHaveText("0");
  await page.getByLabel("Close notification").click();
  await expect(toast).toBeHidden();
});

test("malformed cart posts are refused with a redirect, never a server error", async ({ page }) => {
  const bodies: { form?: Record<string, string>; data?: unknown }[] = [
    { form: { intent: "constructor" } },
    { form: { intent: "update", optionId: "not-an-id", quantity: "-4" } },
    { form: { intent: "add", optionId: "AAAAAAAAAAAAAAAAAAAAAA", quantity: "1", redirectTo: "//evil.example" } },
    { data: { intent: "clear" } },
  ];
  for (const body of bodies) {
    const response = await page.request.post("/cart", { ...body, maxRedirects: 0 });
    expect(response.status()).toBe(302);
    expect(response.headers().location).toMatch(/^\/(?!\/)/);
  }
});
