import { type Locator, type Page, expect, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { deliveredOrder, newCustomer } from "../support/e2e-orders";
import { ownerToken } from "../support/e2e-staff";
import { onlyInPairedProject } from "../support/e2e-projects";

/*
 * Issue 26 item 4, what a shopper sees, with JavaScript on and off, on a 390 px phone and a desktop: the
 * category filter, the product's description size, the product cards' edges, and the flash toast over
 * credentials.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };

type Product = { _id: string; title: string; description: string };

/** Whether two boxes share any area. */
function overlap(a: { x: number; y: number; width: number; height: number }, b: typeof a) {
  return a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;
}

test("the category filter offers only categories with a product to show", async ({ page, request }, testInfo) => {
  const token = await ownerToken(request);
  const tag = `${testInfo.project.name}${Date.now().toString(36)}`;
  // After the demo categories (position), so other specs' first screens stay the demo's.
  const empty = await call<{ _id: string }>(
    request,
    "POST",
    "/v1/admin/catalogue/categories",
    { name: `Empty ${tag}`, position: 900 },
    token,
  );
  const hiddenOnly = await call<{ _id: string }>(
    request,
    "POST",
    "/v1/admin/catalogue/categories",
    { name: `Hidden only ${tag}`, position: 901 },
    token,
  );
  await call(
    request,
    "POST",
    "/v1/admin/catalogue/products",
    { title: `Hidden ${tag}`, fulfilMode: "auto", active: false, categoryIds: [hiddenOnly._id] },
    token,
  );

  await page.goto("/shop");
  const filter = page.getByRole("combobox", { name: "Category" });
  await expect(filter.locator("option")).not.toHaveCount(1);
  await expect(filter.locator(`option[value="${empty._id}"]`)).toHaveCount(0);
  await expect(filter.locator(`option[value="${hiddenOnly._id}"]`)).toHaveCount(0);
  // Every category offered shows at least one product when chosen.
  const offered = await filter
    .locator("option")
    .evaluateAll((options) => options.map((option) => (option as HTMLOptionElement).value).filter(Boolean));
  for (const id of offered.slice(0, 3)) {
    await page.goto(`/shop?category=${id}`);
    await expect(page.locator(".product-card").first()).toBeVisible();
  }
});

for (const viewport of [
  { name: "phone", size: PHONE },
  { name: "desktop", size: DESKTOP },
]) {
  test.describe(`at ${viewport.name} width`, () => {
    onlyInPairedProject(viewport.name as "phone" | "desktop");

    test(`the product's description is at least 14 px, however long (${viewport.name})`, async ({ page, request }) => {
      await page.setViewportSize(viewport.size);
      const products = await call<Product[]>(request, "GET", "/v1/product/read");
      const longest = products.reduce((a, b) => (b.description.length > a.description.length ? b : a));
      expect(longest.description.length, "a demo product with a long description").toBeGreaterThan(500);
      await page.goto(`/shop/${longest._id}`);
      const dialog = page.getByRole("dialog", { name: longest.title });
      const paragraphs = dialog.locator("[data-density] p");
      await expect(paragraphs.first()).toBeVisible();
      const sizes = await paragraphs.evaluateAll((elements) =>
        elements.map((element) => parseFloat(getComputedStyle(element).fontSize)),
      );
      for (const size of sizes) expect(size).toBeGreaterThanOrEqual(14);
    });

    test(`nothing on a product card is cut by its edge (${viewport.name})`, async ({ page }) => {
      await page.setViewportSize(viewport.size);
      await page.goto("/shop");
      const cards = page.locator(".product-card");
      await expect(cards.first()).toBeVisible();
      const cut = await cards.evaluateAll((elements) =>
        elements.slice(0, 8).flatMap((card) => {
          const edge = card.getBoundingClientRect();
          return [...card.querySelectorAll("*")]
            .map((element) => ({ element, box: element.getBoundingClientRect() }))
            .filter(({ box }) => box.width > 0 && box.height > 0)
            .filter(
              ({ box }) =>
                box.left < edge.left - 0.5 ||
                box.right > edge.right + 0.5 ||
                box.top < edge.top - 0.5 ||
                box.bottom > edge.bottom + 0.5,
            )
            .map(({ element }) => `${element.tagName.toLowerCase()}.${element.className}`);
        }),
      );
      expect(cut).toEqual([]);
    });
  });
}

async function visibleToast(page: Page): Promise<Locator> {
  const toast = page.locator("details[data-toast-type]:visible").filter({ hasText: "Payment received. Thank you!" });
  await expect(toast).toBeVisible();
  return toast;
}

test("the payment toast never covers a credential and fades out after 5 s, JS or not (390 px)", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  const customer = await newCustomer(request, testInfo, "toast");
  await deliveredOrder(page, request, customer);
  const toast = await visibleToast(page);
  const credential = page.getByTestId("order-product").locator("li").first();
  await expect(credential).toBeVisible();

  // Wherever the page is scrolled, the credentials and the toast share no pixel.
  for (const block of ["end", "start", "center"] as const) {
    await credential.evaluate((element, where) => element.scrollIntoView({ block: where }), block);
    const [toastBox, credentialBox] = await Promise.all([toast.boundingBox(), credential.boundingBox()]);
    if (toastBox && credentialBox) expect(overlap(toastBox, credentialBox), `scrolled to ${block}`).toBe(false);
  }

  // CSS fades it out (with JS off there is no script to), ending hidden.
  const animation = await toast.evaluate((element) => {
    const style = getComputedStyle(element);
    return { name: style.animationName, delay: style.animationDelay, fill: style.animationFillMode };
  });
  expect(animation).toMatchObject({ delay: "5s", fill: "forwards" });
  expect(animation.name).not.toBe("none");
  await page.waitForTimeout(5_600);
  await expect(page.locator("details[data-toast-type]:visible")).toHaveCount(0);
});
