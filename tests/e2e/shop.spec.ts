import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { expectNoOverflow, ownerToken } from "../support/e2e-staff";

/*
 * Journey 1 (browse), with JS on and off: the demo catalogue is read from /v1 instead of hard-coded.
 */

type Product = {
  _id: string;
  title: string;
  description: string;
  minPrice: number;
  totalStock: number;
  categoryIds: string[];
  maxQuantity: number | null;
  minQuantity: number;
};
type Option = {
  _id: string;
  title: string;
  availableStock: number;
  subOptions: { title: string; duration: number; price: number }[];
};
type Category = { _id: string; name: string };

async function payload<T>(request: APIRequestContext, path: string): Promise<T> {
  const response = await request.get(path);
  expect(response.ok()).toBe(true);
  return ((await response.json()) as { payload: T }).payload;
}

const usd = (amount: number) => `$${amount.toFixed(2)}`;

/** A buyable product with at least two plans in stock, each with durations. */
async function productWithTwoPlans(request: APIRequestContext) {
  const products = await payload<Product[]>(request, "/v1/product/read");
  for (const product of products.filter((candidate) => candidate.totalStock > 0 && !/[[|]/.test(candidate.title))) {
    const options = await payload<Option[]>(request, `/v1/product/option/read/${product._id}`);
    const inStock = options.filter(
      (option) => option.availableStock >= product.minQuantity && option.subOptions.length > 0,
    );
    if (inStock.length >= 2) return { product, options, inStock };
  }
  throw new Error("the demo catalogue has no product with two plans in stock");
}

function productCard(page: Page, title: string) {
  return page
    .locator(".product-card")
    .filter({ has: page.getByRole("heading", { name: title, exact: true }) })
    .first();
}

test("the shop lists the catalogue grouped by category with prices and stock", async ({ page, request }) => {
  const [products, categories] = await Promise.all([
    payload<Product[]>(request, "/v1/product/read"),
    payload<Category[]>(request, "/v1/category/read"),
  ]);
  await page.goto("/shop");
  await expect(page.getByRole("heading", { level: 1, name: "Shop" })).toBeVisible();
  await expect(page.getByRole("combobox", { name: "Category" })).toHaveValue("");
  await expect(page.getByRole("option", { name: "All categories" })).toHaveCount(1);

  for (const category of categories.filter((candidate) =>
    products.some((product) => product.categoryIds.includes(candidate._id)),
  )) {
    await expect(page.getByRole("heading", { level: 2, name: category.name, exact: true })).toBeVisible();
  }

  const first = products.find((product) => product.totalStock >= 10) ?? products[0];
  await expect(productCard(page, first.title)).toContainText(`From ${usd(first.minPrice)}`);

  const lowStock = products.find((product) => product.totalStock >= 1 && product.totalStock <= 9);
  if (lowStock) await expect(productCard(page, lowStock.title)).toContainText(`Only ${lowStock.totalStock} left`);
  const soldOut = products.find((product) => product.totalStock === 0);
  if (soldOut) await expect(productCard(page, soldOut.title)).toContainText("Out of Stock");
  const semiPrivate = products.find((product) => /semi private/i.test(product.title));
  if (semiPrivate) await expect(productCard(page, semiPrivate.title)).toContainText("Semi Private");
});

test("the first screen's pictures load at once, the rest lazily, and every picture has its size", async ({ page }) => {
  await page.goto("/shop");
  // Per card, in page order: its category section, and its picture's loading (none: no picture to load).
  const cards = await page.locator(".product-card").evaluateAll((elements) =>
    elements.map((card) => {
      const image = card.querySelector("img");
      return {
        section: card.closest("section")?.getAttribute("aria-labelledby") ?? "",
        loading: image?.getAttribute("loading") ?? null,
        sized: !image || (Number(image.getAttribute("width")) > 0 && Number(image.getAttribute("height")) > 0),
      };
    }),
  );
  expect(cards.length).toBeGreaterThan(4);
  const firstScreen = cards.filter((card) => card.section === cards[0].section).slice(0, 4);
  const rest = cards.filter((card) => !firstScreen.includes(card));
  expect(firstScreen.every((card) => card.loading !== "lazy")).toBe(true);
  expect(rest.every((card) => card.loading !== "eager")).toBe(true);
  expect(cards.some((card) => card.loading === "eager")).toBe(true);
  expect(cards.some((card) => card.loading === "lazy")).toBe(true);
  expect(cards.every((card) => card.sized)).toBe(true);
});

test("search by title and filter by category", async ({ page, request }) => {
  const [products, categories] = await Promise.all([
    payload<Product[]>(request, "/v1/product/read"),
    payload<Category[]>(request, "/v1/category/read"),
  ]);
  const target = products.find((product) => product.categoryIds.length > 0) ?? products[0];
  const other = products.find(
    (product) => !product.title.toLowerCase().includes(target.title.toLowerCase()) && product._id !== target._id,
  );

  await page.goto("/shop");
  await page.getByRole("searchbox", { name: "Search products" }).fill(target.title);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=/);
  await expect(productCard(page, target.title)).toBeVisible();
  if (other) await expect(productCard(page, other.title)).toHaveCount(0);

  await page.getByRole("searchbox", { name: "Search products" }).fill("no product is called like this");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page.getByText("No products match your search.")).toBeVisible();

  const category = categories.find((candidate) => candidate._id === target.categoryIds[0]);
  if (!category) throw new Error("the product's category is not listed");
  await page.goto("/shop");
  await page.getByRole("combobox", { name: "Category" }).selectOption(category._id);
  // With JS the select submits itself; a click on Search gives the same result either way.
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`category=${category._id}`));
  await expect(page.getByRole("heading", { level: 2 })).toHaveText([category.name]);
  await expect(productCard(page, target.title)).toBeVisible();
});

test("a product opens in a dialog with its plans, durations, prices and stock", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  const { product, options, inStock } = await productWithTwoPlans(request);
  await page.goto(`/shop?q=${encodeURIComponent(product.title)}`);
  await productCard(page, product.title).click();

  const dialog = page.getByRole("dialog", { name: product.title });
  await expect(dialog).toBeVisible();
  if (javaScriptEnabled) {
    await expect(dialog).toBeFocused();
    // The keyboard stays in the dialog: Shift+Tab from its start wraps to its last control.
    await page.keyboard.press("Shift+Tab");
    await expect(dialog.locator(":focus")).toHaveCount(1);
  }
  // Long descriptions are set smaller (thresholds 200 and 500 characters).
  const density =
    product.description.length > 500 ? "compact" : product.description.length >= 200 ? "medium" : "normal";
  if (product.description.trim()) await expect(dialog.locator(`[data-density="${density}"]`)).toHaveCount(1);
  await expect(page).toHaveURL(new RegExp(`/shop/${product._id}\\?q=`));
  for (const option of options) {
    const stock = option.availableStock > 0 ? `${option.availableStock} available` : "Out of Stock";
    await expect(dialog.getByRole("radio", { name: new RegExp(`^${escapeRegExp(option.title)}`) })).toHaveCount(1);
    await expect(dialog.locator("label", { hasText: option.title }).first()).toContainText(stock);
  }

  // The first plan in stock is preselected; another plan shows its own durations (a GET form without JS).
  const [firstPlan, secondPlan] = inStock;
  await expect(dialog.getByRole("group", { name: `Warranty for ${firstPlan.title}` })).toBeVisible();
  await dialog.getByRole("radio", { name: new RegExp(`^${escapeRegExp(secondPlan.title)}`) }).check();
  const showDurations = dialog.getByRole("button", { name: "Show warranty options for this plan" });
  if (await showDurations.isVisible()) await showDurations.click();
  const durations = dialog.getByRole("group", { name: `Warranty for ${secondPlan.title}` });
  await expect(durations).toBeVisible();
  for (const duration of secondPlan.subOptions) {
    await expect(durations.locator("label", { hasText: duration.title })).toContainText(usd(duration.price));
  }

  if (javaScriptEnabled) {
    await page.keyboard.press("Escape");
  } else {
    await dialog.getByRole("link", { name: "Close product" }).click();
  }
  await expect(page.getByRole("dialog")).toHaveCount(0);
  await expect(page).toHaveURL(/\/shop\?q=/);
});

test("Add to Cart needs a warranty option", async ({ page, request, javaScriptEnabled }) => {
  const { product } = await productWithTwoPlans(request);
  await page.goto(`/shop/${product._id}`);
  const dialog = page.getByRole("dialog");
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  if (javaScriptEnabled) {
    await expect(dialog.getByText("Please select a warranty option")).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/shop/${product._id}$`));
  } else {
    // Without JS the server answers, back on the product: no browser bubble hides its message.
    await expect(page.getByRole("alert").filter({ hasText: "Please select a warranty option" })).toBeVisible();
    await expect(page).toHaveURL(new RegExp(`/shop/${product._id}\\?option=`));
  }
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("an unknown product is a 404 inside the shop", async ({ page }) => {
  const response = await page.goto("/shop/AAAAAAAAAAAAAAAAAAAAAA");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("dialog", { name: "Product not found" })).toBeVisible();
});

function escapeRegExp(text: string) {
  return text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
}

test("the whole shop shows 12 cards a category, and Show all opens the category with every product", async ({
  page,
  request,
}, testInfo) => {
  const token = await ownerToken(request);
  const auth = { authorization: `Bearer ${token}` };
  const run = `${testInfo.project.name}-${Date.now().toString(36)}`;
  const category = await call<{ _id: string; name: string }>(
    request,
    "POST",
    "/v1/admin/catalogue/categories",
    // Last among the categories, so the demo's pages above it are unchanged.
    { name: `Bundles ${run}`, position: 100 },
    token,
  );
  const bundles: { _id: string; fields: Record<string, unknown> }[] = [];
  for (let number = 1; number <= 13; number++) {
    const fields = {
      title: `Bundle ${run} ${String(number).padStart(2, "0")}`,
      fulfilMode: "auto",
      position: number,
      categoryIds: [category._id],
    };
    const product = await call<{ _id: string }>(request, "POST", "/v1/admin/catalogue/products", fields, token);
    bundles.push({ _id: product._id, fields });
  }
  try {
    await page.goto("/shop");
    const section = page.getByRole("region", { name: category.name });
    await expect(section.locator(".product-card")).toHaveCount(12);
    await expect(section.getByRole("heading", { name: `Bundle ${run} 13` })).toHaveCount(0);
    await section.getByRole("link", { name: `Show all 13 in ${category.name}` }).click();
    await expect(page).toHaveURL(new RegExp(`category=${category._id}`));
    await expect(page.getByRole("region", { name: category.name }).locator(".product-card")).toHaveCount(13);
    await expect(page.getByRole("link", { name: /^Show all/ })).toHaveCount(0);
    await expectNoOverflow(page, "a category's whole list");
    // On a phone too: the link is reachable and nothing overflows.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/shop");
    const onPhone = page.getByRole("region", { name: category.name });
    await onPhone.getByRole("link", { name: `Show all 13 in ${category.name}` }).scrollIntoViewIfNeeded();
    await expect(onPhone.getByRole("link", { name: `Show all 13 in ${category.name}` })).toBeInViewport();
    await expectNoOverflow(page, "the whole shop on a phone");
  } finally {
    // Other specs measure the demo shop: the bundles are hidden and their category removed.
    for (const bundle of bundles) {
      const hidden = await request.put(`/v1/admin/catalogue/products/${bundle._id}`, {
        data: { ...bundle.fields, active: false },
        headers: auth,
      });
      expect(hidden.ok()).toBe(true);
    }
    const removed = await request.delete(`/v1/admin/catalogue/categories/${category._id}`, { headers: auth });
    expect(removed.ok(), await removed.text()).toBe(true);
  }
});
