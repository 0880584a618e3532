import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { onlyInProject } from "../support/e2e-projects";

/*
 * Every public page tells search engines and link previews what it is: one description of its own,
 * never a copy of another page's. Server-rendered, the same with JavaScript on, so the no-js project checks it:
 * what crawlers and link previews read (ADR 062).
 */

onlyInProject("no-js", "the head's tags are the server's markup, the same with JavaScript (ADR 062)");

type Product = { _id: string; title: string; description: string; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { duration: number }[] };

/** A product with a description and stock, and the sandbox payment page of a fresh order for it. */
async function productAndPaymentPage(request: APIRequestContext, tag: string) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  for (const product of products.filter((candidate) => candidate.minQuantity === 1 && candidate.description.trim())) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 1 && candidate.subOptions.length > 0);
    if (!option) continue;
    const username = `meta_${tag}_${Date.now().toString(36)}`;
    const password = `correct horse ${username}`;
    const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
      username,
      email: `${username}@example.com`,
      password,
      password2: password,
    });
    const cartItem = { optionId: option._id, duration: option.subOptions[0].duration, quantity: 1 };
    await call(request, "POST", "/v1/cart/add", cartItem, token);
    const order = await call<{ paymentUrl: string }>(
      request,
      "POST",
      "/v1/order/create",
      { paymentMethod: "sandbox", coupon: "", message: "", isGuest: false },
      token,
    );
    return { product, paymentPath: new URL(order.paymentUrl).pathname };
  }
  throw new Error("the demo catalogue has no product with a description and stock");
}

async function descriptionOf(page: Page, path: string) {
  await page.goto(path);
  const descriptions = page.locator('head meta[name="description"]');
  await expect(descriptions, path).toHaveCount(1);
  const description = (await descriptions.getAttribute("content")) ?? "";
  expect(description.trim().length, `${path}: "${description}"`).toBeGreaterThanOrEqual(40);
  expect(description.length, `${path}: "${description}"`).toBeLessThanOrEqual(160);
  await expect(page.locator('head meta[property="og:description"]'), path).toHaveAttribute("content", description);
  return description;
}

test("every public page has one description of its own", async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const { product, paymentPath } = await productAndPaymentPage(request, testInfo.project.name.replace("-", ""));
  const paths = [
    "/",
    "/shop",
    `/shop/${product._id}`,
    "/cart",
    "/find-order",
    "/login",
    "/signup",
    "/forgot",
    "/reset?email=someone%40example.com",
    "/faqs",
    "/contact",
    "/terms-of-service",
    "/privacy-policy",
    paymentPath,
    "/no-such-page-anywhere",
  ];
  const seen = new Map<string, string>();
  for (const path of paths) {
    const description = await descriptionOf(page, path);
    expect(seen.get(description), `${path} repeats the description of ${seen.get(description)}`).toBeUndefined();
    seen.set(description, path);
  }

  // A product's page describes that product, in its own words.
  const productDescription = [...seen].find(([, path]) => path === `/shop/${product._id}`)?.[0] ?? "";
  const firstWords = product.description.replace(/\s+/g, " ").trim().split(" ").slice(0, 5).join(" ");
  expect(productDescription.startsWith(firstWords), productDescription).toBe(true);
});
