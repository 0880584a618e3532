import { type APIRequestContext, type Browser, expect, type Page, type TestInfo, test } from "@playwright/test";
import sharp from "sharp";
import { call } from "../support/e2e-api";
import {
  E2E_OWNER,
  expectNoOverflow,
  newAccount,
  newStaff,
  signInThroughForm,
  backOfficeNav,
} from "../support/e2e-staff";

/*
 * Issue 16's whole journey, as the owner `npm run admin:create` made: a category, a product, an option and
 * its warranty prices; stock pasted with a duplicate and a bad line; the product in the shop; a coupon a
 * guest pays with; a key that redeems; a balance credit in the ledger; and the audit log listing each
 * change. With JavaScript on a desktop, without it on a 390 px phone. Then a customer and a support account
 * are refused the catalogue, in pages and in the API.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
/** The builtin human check accepts a token 2 s after it was issued; a person is never that quick. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;

function unique(testInfo: TestInfo) {
  return `${testInfo.project.name.replace("-", "")}${Date.now().toString(36)}${testInfo.workerIndex}`;
}

/** Waits out the human check's minimum age since `since`, as a person filling the form would. */
async function likeAPerson(page: Page, since: number) {
  const wait = HUMAN_CHECK_MIN_AGE_MS - (Date.now() - since);
  if (wait > 0) await page.waitForTimeout(wait);
}

async function guestBrowser(browser: Browser, baseURL: string | undefined, javaScriptEnabled: boolean) {
  const context = await browser.newContext({
    baseURL,
    javaScriptEnabled,
    viewport: javaScriptEnabled ? DESKTOP : PHONE,
  });
  return { context, page: await context.newPage() };
}

type Option = { _id: string; title: string; availableStock: number; subOptions: { duration: number; price: number }[] };

async function shopOptions(request: APIRequestContext, productId: string) {
  return call<Option[]>(request, "GET", `/v1/product/option/read/${productId}`);
}

test("an owner builds, stocks and sells a product; coupon, key, balance and audit log follow", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  await page.setViewportSize(javaScriptEnabled ? DESKTOP : PHONE);
  const tag = unique(testInfo);
  const categoryName = `Journey ${tag}`;
  const title = `Journey Tunes ${tag}`;

  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await (await backOfficeNav(page)).getByRole("link", { name: "Catalogue" }).click();
  await expect(page.getByRole("heading", { name: "Catalogue", exact: true })).toBeVisible();
  await expectNoOverflow(page, "/admin/catalogue");

  // A category.
  await page.getByText("New category", { exact: true }).click();
  const newCategory = page.locator("form#category-new");
  await newCategory.getByLabel("Name").fill(categoryName);
  // After the demo categories, so the shop's first screen stays the demo's for the other specs.
  await newCategory.getByLabel("Position").fill("100");
  await newCategory.getByRole("button", { name: "Create category" }).click();
  await expect(page.getByText(`Category ${categoryName} created`).first()).toBeVisible();
  await expect(
    page.getByRole("table", { name: "Categories" }).getByRole("row").filter({ hasText: categoryName }),
  ).toBeVisible();

  // A product in it: a maximum below the minimum is refused beside the field (by the server without JS).
  await page.getByText("New product", { exact: true }).click();
  const newProduct = page.locator("form#product-new");
  await newProduct.getByLabel("Title", { exact: true }).fill(title);
  await newProduct.getByLabel("Label", { exact: true }).fill("MUSIC");
  await newProduct.getByLabel("Description").fill("Ad-free music on every device.");
  await newProduct.getByLabel("Delivery notes").fill("Sign in with the e-mail given; keep the password.");
  await newProduct.getByRole("checkbox", { name: categoryName }).check();
  await newProduct.getByLabel("Minimum quantity").fill("3");
  await newProduct.getByLabel("Maximum quantity").fill("2");
  await newProduct.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByText("The maximum cannot be below the minimum")).toBeVisible();
  await newProduct.getByLabel("Minimum quantity").fill("1");
  await newProduct.getByLabel("Maximum quantity").fill("5");
  await newProduct.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("heading", { name: title })).toBeVisible();
  await expect(page.getByText(`Product ${title} created`).first()).toBeVisible();
  const productId = /\/admin\/catalogue\/([A-Za-z0-9_-]{22})$/.exec(page.url())?.[1];
  expect(productId).toBeTruthy();
  await expectNoOverflow(page, "/admin/catalogue/{id}");

  // A picture, uploaded: stored as WebP and shown from /uploads.
  const png = await sharp({ create: { width: 960, height: 540, channels: 3, background: "#7c3aed" } })
    .png()
    .toBuffer();
  await page.getByLabel("Upload a picture").setInputFiles({ name: "cover.png", mimeType: "image/png", buffer: png });
  await page.getByRole("button", { name: "Upload picture" }).click();
  await expect(page.getByText("Picture saved").first()).toBeVisible();
  const picture = page.getByRole("region", { name: "Picture" }).getByRole("img", { name: title });
  await expect(picture).toHaveAttribute("src", /^\/uploads\/products\/[A-Za-z0-9_-]{22}-640\.webp$/);
  const served = await request.get((await picture.getAttribute("src"))!);
  expect(served.headers()["content-type"]).toBe("image/webp");
  expect(served.headers()["cache-control"]).toContain("immutable");

  // An option (its form is open while the product has none) and two warranty prices.
  const newOption = page.locator("form#option-new");
  await newOption.getByLabel("Option title").fill("Solo");
  await newOption.getByLabel("Low-stock threshold").fill("1");
  await newOption.getByRole("button", { name: "Add option" }).click();
  await expect(page.getByText("Option Solo added").first()).toBeVisible();
  const option = page.locator("article").filter({ has: page.getByRole("heading", { name: "Solo" }) });

  const addDuration = async (warranty: string, days: string, price: string) => {
    await option.getByText("Add a warranty duration").click();
    const form = option.locator('form[id^="duration-new-"]');
    await form.getByLabel("Warranty title").fill(warranty);
    await form.getByLabel("Days").fill(days);
    await form.getByLabel("Price (USD)").fill(price);
    await form.getByRole("button", { name: "Add warranty" }).click();
  };
  await addDuration("1 Month", "30", "4.00");
  await expect(page.getByText("Warranty 1 Month added").first()).toBeVisible();
  await addDuration("3 Months", "90", "10.50");
  await expect(page.getByText("Warranty 3 Months added").first()).toBeVisible();
  // The same number of days twice is refused beside the field.
  await addDuration("Thirty days", "30", "3.00");
  await expect(option.getByText("This option already has a warranty of this many days")).toBeVisible();
  const durations = option.getByRole("table", { name: "Warranty durations of Solo" });
  await expect(durations.getByRole("row")).toHaveCount(3);
  await expect(durations).toContainText("$10.50");
  await expectNoOverflow(page, "the option's durations");

  // Stock, pasted with a duplicate and a bad line.
  await option.getByRole("link", { name: "Stock" }).click();
  await expect(page.getByRole("heading", { name: `${title} — Solo` })).toBeVisible();
  await page
    .getByRole("textbox", { name: "Credentials", exact: true })
    .fill(
      [`one.${tag}@mail.example:pw1`, `two.${tag}@mail.example:pw2`, `ONE.${tag}@MAIL.EXAMPLE:pw1`, "no colon"].join(
        "\n",
      ),
    );
  await page.getByRole("button", { name: "Import", exact: true }).click();
  const report = page.getByTestId("import-report");
  await expect(report.getByRole("heading")).toHaveText(
    /^Imported 2 credentials into batch “\d{4}-\d\d-\d\d \d\d:\d\d UTC”$/,
  );
  await expect(report.getByTestId("import-added")).toHaveText("Added 2 (2 seats)");
  await expect(report.getByTestId("import-duplicates")).toHaveText("Duplicate 1 (line 3)");
  await expect(report.getByTestId("import-invalid")).toContainText("Invalid 1");

  // The product is in the shop, in its category, with its stock and lowest price.
  const [shopOption] = await shopOptions(request, productId!);
  expect(shopOption).toMatchObject({ title: "Solo", availableStock: 2 });
  expect(shopOption.subOptions.map((sub) => [sub.duration, sub.price])).toEqual([
    [30, 4],
    [90, 10.5],
  ]);
  const guest = await guestBrowser(browser, baseURL, javaScriptEnabled);
  await guest.page.goto("/shop");
  const category = guest.page.getByRole("region", { name: categoryName });
  await expect(category.getByRole("link", { name: new RegExp(title) })).toBeVisible();
  await expectNoOverflow(guest.page, "/shop with the new product");

  // A coupon for this product only.
  const code = `J${tag}`.toUpperCase().slice(0, 30);
  await page.goto("/admin/coupons/new");
  await page.getByLabel("Code", { exact: true }).fill(code);
  await page.getByLabel("Kind").selectOption("percent");
  await page.getByLabel("Discount", { exact: true }).fill("50");
  await page.getByRole("checkbox", { name: title }).check();
  await page.getByRole("button", { name: "Create coupon" }).click();
  await expect(page.getByText(`Coupon ${code} created: 50% off`).first()).toBeVisible();

  // A guest buys it with the coupon: half of $4.00.
  await guest.page.goto(`/shop/${productId}?option=${shopOption._id}`);
  const dialog = guest.page.getByRole("dialog", { name: title });
  await dialog.getByRole("radio", { name: /^1 Month/ }).check();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  const cart = guest.page.getByRole("dialog", { name: "Your Cart" });
  await cart.getByLabel("Coupon Code").fill(code);
  await cart.getByRole("button", { name: "Apply coupon" }).click();
  await expect(cart.getByTestId("coupon-applied")).toContainText(code);
  const cartShownAt = Date.now();
  await cart.getByLabel("Email Address").fill(`buyer.${tag}@example.com`);
  await likeAPerson(guest.page, cartShownAt);
  await expect(cart.getByRole("button", { name: /^Checkout / })).toContainText("$2.00");
  await cart.getByRole("button", { name: /^Checkout / }).click();
  await expect(guest.page).toHaveURL(/\/pay\/sandbox\//);
  await guest.page.getByRole("button", { name: /^Pay / }).click();
  await expect(guest.page.getByTestId("order-status")).toHaveText("Completed");

  // A key for the 3-month warranty, redeemed by a new customer.
  await page.goto("/admin/keys");
  await page.getByLabel("Plan and warranty").selectOption(`${shopOption._id}:90`);
  await page.getByLabel(/Number of keys/).fill("1");
  await page.getByRole("button", { name: "Generate", exact: true }).click();
  const key = (await page.getByLabel("Generated codes").inputValue()).trim();
  expect(key).toMatch(/^([0-9A-Z]{5}-){3}[0-9A-Z]{5}$/);
  await guest.page.goto("/redeem-key");
  const keyShownAt = Date.now();
  await guest.page.getByLabel("Email Address").fill(`keyed.${tag}@example.com`);
  await guest.page.getByLabel("Key").fill(key);
  await likeAPerson(guest.page, keyShownAt);
  await guest.page.getByRole("button", { name: "Redeem Key" }).click();
  await expect(guest.page.getByRole("status").filter({ hasText: "Your key is redeemed" })).toBeVisible();
  await guest.context.close();
  // Both seats are sold now: the shop says so.
  expect((await shopOptions(request, productId!))[0].availableStock).toBe(0);

  // A customer's balance, credited with a reason.
  const customer = await newAccount(request, testInfo, `journey${tag}`);
  await page.goto(`/admin/customers?search=${encodeURIComponent(customer.email)}`);
  await page.getByRole("link", { name: customer.email }).click();
  await page.getByLabel("Change").selectOption("credit");
  await page.getByLabel("Amount (USD)").fill("3.50");
  await page.getByLabel("Reason", { exact: true }).fill(`Journey goodwill ${tag}`);
  await page.getByRole("button", { name: "Adjust balance" }).click();
  await expect(page.getByTestId("customer-balance")).toHaveText("$3.50");
  await expect(
    page
      .getByRole("table", { name: "Balance ledger" })
      .getByRole("row")
      .filter({ hasText: `Journey goodwill ${tag}` }),
  ).toContainText("+$3.50");

  // The audit log lists every change of the journey.
  await page.goto(`/admin/audit?object=${encodeURIComponent(tag)}`);
  const log = page.getByRole("table", { name: "Audit log entries" });
  for (const action of [
    "category.create",
    "product.create",
    "option.create",
    "duration.create",
    "stock.import",
    "coupon.create",
    "keys.generate",
    "customer.balance.credit",
  ]) {
    await expect(log.getByRole("row").filter({ hasText: action }).first(), action).toBeVisible();
  }
  await expect(log.getByRole("row").filter({ hasText: E2E_OWNER.email }).first()).toBeVisible();
  await expectNoOverflow(page, "/admin/audit");
});

test("a customer and a support account are refused the catalogue, in pages and in the API", async ({
  page,
  request,
}, testInfo) => {
  const support = await newStaff(request, testInfo, "support");
  await signInThroughForm(page, support.username, support.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  // The back office answers an area a role does not reach as if it did not exist.
  const answer = await page.goto("/admin/catalogue");
  expect(answer?.status()).toBe(404);
  await expect(page.getByRole("link", { name: "Catalogue" })).toHaveCount(0);
  const bySupport = await request.post("/v1/admin/catalogue/categories", {
    data: { name: "Not allowed" },
    headers: { authorization: `Bearer ${support.token}` },
  });
  expect(bySupport.status()).toBe(403);

  const customer = await newAccount(request, testInfo, "nocatalogue");
  const byCustomer = await request.get("/v1/admin/catalogue/products", {
    headers: { authorization: `Bearer ${customer.token}` },
  });
  expect(byCustomer.status()).toBe(403);
});
