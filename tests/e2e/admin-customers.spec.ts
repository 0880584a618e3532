import { type APIRequestContext, type Browser, expect, type Page, test, type TestInfo } from "@playwright/test";
import { ACCOUNT_BLOCKED, EMAIL_REFUSED } from "../../contract/admin-customers";
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
 * Customers, the blocklist and coupons in the back office (ADR 026), JS on and off, at a phone width and on
 * a desktop: the owner made by `npm run admin:create` makes a coupon a guest then uses, adjusts a balance the
 * customer then sees, blocks a sign-in, refuses an address at checkout; support reads without change forms.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const VIEWPORTS = [
  { name: "phone", ...PHONE },
  { name: "desktop", ...DESKTOP },
];
/** The builtin human check accepts a token 2 s after it was issued. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;

type Product = { _id: string; title: string; fullFillmode: "auto" | "manual"; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { title: string; duration: number; price: number }[] };

let counter = 0;
function unique(testInfo: TestInfo, prefix: string) {
  counter++;
  return `${prefix}-${testInfo.project.name.replace("-", "")}-${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
}

/** A product delivered automatically with stock, and the title of its first warranty duration. */
async function autoPlan(request: APIRequestContext) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  for (const product of products.filter((item) => item.fullFillmode === "auto" && item.minQuantity === 1)) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 3 && candidate.subOptions.length > 0);
    if (option) return { product, option, duration: option.subOptions[0] };
  }
  throw new Error("the demo catalogue has no automatic plan with stock");
}

/** A second browser (the customer's or a guest's) beside the owner's, with the same JS setting and width. */
async function otherBrowser(
  browser: Browser,
  options: { baseURL: string | undefined; javaScriptEnabled: boolean; viewport: { width: number; height: number } },
) {
  const context = await browser.newContext(options);
  return { context, page: await context.newPage() };
}

/** A guest fills the cart with the plan, optionally applies a coupon, and checks out with `email`. */
async function guestCheckout(page: Page, request: APIRequestContext, email: string, coupon?: string) {
  const plan = await autoPlan(request);
  await page.goto(`/shop/${plan.product._id}?option=${plan.option._id}`);
  const dialog = page.getByRole("dialog", { name: plan.product.title });
  await dialog.getByRole("radio", { name: new RegExp(`^${plan.duration.title}`) }).check();
  await dialog.getByRole("button", { name: "Add to Cart" }).click();
  await expect(page).toHaveURL(/\/shop\?cart=open$/);
  const panel = page.getByRole("dialog", { name: "Your Cart" });
  if (coupon) {
    await panel.getByLabel("Coupon Code").fill(coupon);
    await panel.getByRole("button", { name: "Apply coupon" }).click();
    await expect(page.getByRole("dialog", { name: "Your Cart" }).getByTestId("coupon-applied")).toContainText(coupon);
  }
  const renderedAt = Date.now();
  await page.getByRole("dialog", { name: "Your Cart" }).getByLabel("Email Address").fill(email);
  await page.waitForTimeout(Math.max(0, HUMAN_CHECK_MIN_AGE_MS - (Date.now() - renderedAt)));
  await page
    .getByRole("dialog", { name: "Your Cart" })
    .getByRole("button", { name: /^Checkout / })
    .click();
}

for (const viewport of VIEWPORTS) {
  test(`the owner makes a coupon, a guest pays with it, and its uses go up (${viewport.name})`, async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const code = unique(testInfo, "HALF").toUpperCase();
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/coupons");
    await expect(page.getByRole("heading", { name: "Coupons" })).toBeVisible();
    await expectNoOverflow(page, "/admin/coupons");
    await page.getByRole("link", { name: "New coupon" }).click();
    await expect(page.getByRole("heading", { name: "New coupon" })).toBeVisible();

    // A percent above 100 is a form error, and nothing is made.
    await page.getByLabel("Code", { exact: true }).fill(code);
    await page.getByLabel("Kind").selectOption("percent");
    await page.getByLabel("Discount", { exact: true }).fill("150");
    await page.getByLabel("Total uses").fill("100");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page.getByText("A percent coupon takes 1 to 100 (whole percent)")).toBeVisible();
    await expectNoOverflow(page, "/admin/coupons/new");

    await page.getByLabel("Discount", { exact: true }).fill("50");
    await page.getByLabel("Total uses").fill("100");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page).toHaveURL(/\/admin\/coupons$/);
    await expect(page.getByText(`Coupon ${code} created: 50% off`).first()).toBeVisible();
    const row = page.getByRole("row").filter({ hasText: code });
    await expect(row.getByTestId("coupon-uses")).toHaveText("0 / 100");

    // The same code in another letter case is refused in the form.
    await page.goto("/admin/coupons/new");
    await page.getByLabel("Code", { exact: true }).fill(code.toLowerCase());
    await page.getByLabel("Discount", { exact: true }).fill("10");
    await page.getByRole("button", { name: "Create coupon" }).click();
    await expect(page.getByText("Another coupon already has this code")).toBeVisible();

    const guest = await otherBrowser(browser, { baseURL, javaScriptEnabled, viewport });
    await guestCheckout(guest.page, request, `${unique(testInfo, "couponguest")}@example.com`, code.toLowerCase());
    await expect(guest.page).toHaveURL(/\/pay\/sandbox\//);
    await guest.page.getByRole("button", { name: /^Pay / }).click();
    await expect(guest.page.getByTestId("order-status")).toHaveText("Completed");
    await guest.context.close();

    await page.goto(`/admin/coupons?search=${code}`);
    await expect(page.getByRole("row").filter({ hasText: code }).getByTestId("coupon-uses")).toHaveText("1 / 100");
    await page.getByRole("link", { name: code }).click();
    await expect(page.getByTestId("coupon-uses")).toHaveText("1 / 100");
    // Used, so it cannot be deleted; it can be deactivated.
    await expect(page.getByRole("button", { name: "Delete" })).toHaveCount(0);
    await page.getByRole("button", { name: "Deactivate" }).click();
    await expect(page.getByText(`Coupon ${code} deactivated`).first()).toBeVisible();
    await expectNoOverflow(page, "/admin/coupons/{id}");
  });

  test(`the owner credits a balance with a reason; staff and the customer see the line (${viewport.name})`, async ({
    page,
    browser,
    baseURL,
    javaScriptEnabled,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const customer = await newAccount(request, testInfo, "credited");
    const reason = `Goodwill for a late delivery ${unique(testInfo, "r")}`;
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/customers");
    await page.getByLabel("Search customers").fill(customer.email);
    await page.getByRole("button", { name: "Search" }).click();
    await expectNoOverflow(page, "/admin/customers");
    await page.getByRole("link", { name: customer.email }).click();
    await expect(page.getByRole("heading", { name: customer.email })).toBeVisible();

    await page.getByLabel("Change").selectOption("credit");
    await page.getByLabel("Amount (USD)").fill("5.25");
    await page.getByLabel("Reason", { exact: true }).fill(reason);
    await page.getByRole("button", { name: "Adjust balance" }).click();
    await expect(page.getByText(`Credited $5.25: ${customer.email} now has $5.25`).first()).toBeVisible();
    await expect(page.getByTestId("customer-balance")).toHaveText("$5.25");
    const line = page.getByRole("table", { name: "Balance ledger" }).getByRole("row").filter({ hasText: reason });
    await expect(line).toContainText("Credit by staff");
    await expect(line).toContainText("+$5.25");
    await expect(line).toContainText(E2E_OWNER.email);

    // More than the balance is refused in the form, and the balance stays.
    await page.getByLabel("Change").selectOption("debit");
    await page.getByLabel("Amount (USD)").fill("6");
    await page.getByLabel("Reason", { exact: true }).fill("Too much on purpose");
    await page.getByRole("button", { name: "Adjust balance" }).click();
    await expect(page.getByText("The balance is $5.25: a debit cannot take it below zero.")).toBeVisible();
    await expect(page.getByTestId("customer-balance")).toHaveText("$5.25");
    await expectNoOverflow(page, "/admin/customers/{id}");

    const own = await otherBrowser(browser, { baseURL, javaScriptEnabled, viewport });
    await signInThroughForm(own.page, customer.username, customer.password, "/balance");
    await expect(own.page.getByTestId("balance-current")).toHaveText("$5.25");
    const history = own.page.getByTestId("balance-history");
    await expect(history.getByRole("row").filter({ hasText: `Admin: ${reason}` })).toContainText("+$5.25");
    await expect(history).not.toContainText(E2E_OWNER.email);
    await own.context.close();
  });
}

test("a blocked customer is signed out at once and refused at sign-in", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
  request,
}, testInfo) => {
  await page.setViewportSize(DESKTOP);
  const customer = await newAccount(request, testInfo, "blocked");
  const own = await otherBrowser(browser, { baseURL, javaScriptEnabled, viewport: DESKTOP });
  await signInThroughForm(own.page, customer.username, customer.password, "/dashboard");
  await expect(own.page).toHaveURL(/\/dashboard$/);

  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/customers");
  await page.getByLabel("Search customers").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: customer.email }).click();
  // A reason is required: the browser (and with JS the form) refuses an empty one.
  const reason = page.getByLabel("Reason for blocking");
  await page.getByRole("button", { name: "Block", exact: true }).click();
  expect(await reason.evaluate((input) => (input as HTMLInputElement).validity.valueMissing)).toBe(true);
  await expect(page.getByTestId("customer-blocked")).toHaveCount(0);
  await reason.fill("Chargebacks on three orders");
  await page.getByRole("button", { name: "Block", exact: true }).click();
  await expect(page.getByText(`${customer.email} is blocked and signed out everywhere`).first()).toBeVisible();
  await expect(page.getByTestId("customer-blocked")).toContainText("Chargebacks on three orders");

  // The customer's next request finds them signed out, and signing in again is refused.
  await own.page.goto("/balance");
  await expect(own.page).not.toHaveURL(/\/balance/);
  // The dropped session is gone for good: the page now asks for a sign-in.
  await own.page.goto("/balance");
  await expect(own.page).toHaveURL(/\/login\?redirectTo=%2Fbalance$/);
  await signInThroughForm(own.page, customer.username, customer.password, "/dashboard");
  await expect(own.page.getByText(ACCOUNT_BLOCKED)).toBeVisible();
  await expect(own.page).not.toHaveURL(/\/dashboard$/);

  await page.getByLabel("Reason for unblocking").fill("The bank confirmed the payments");
  await page.getByRole("button", { name: "Unblock", exact: true }).click();
  await expect(page.getByText(`${customer.email} can sign in again`).first()).toBeVisible();
  await signInThroughForm(own.page, customer.username, customer.password, "/dashboard");
  await expect(own.page).toHaveURL(/\/dashboard$/);
  await own.context.close();
});

test("an address on the blocklist is refused at checkout", async ({
  page,
  browser,
  baseURL,
  javaScriptEnabled,
  request,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const domain = `${unique(testInfo, "refused").toLowerCase()}.example`;
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/blocklist");
  await expect(page.getByRole("heading", { name: "Blocklist" })).toBeVisible();
  await page.getByLabel("Address or pattern").fill(`*@${domain.toUpperCase()}`);
  await page.getByLabel("Note (optional)").fill("Card testing");
  await page.getByRole("button", { name: "Add to blocklist" }).click();
  await expect(page.getByText(`*@${domain} is refused at checkout`).first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `*@${domain}` })).toContainText("Card testing");
  // The same pattern again is a form error.
  await page.getByLabel("Address or pattern").fill(`*@${domain}`);
  await page.getByRole("button", { name: "Add to blocklist" }).click();
  await expect(page.getByText("This address or pattern is already on the blocklist")).toBeVisible();
  await expectNoOverflow(page, "/admin/blocklist");

  const guest = await otherBrowser(browser, { baseURL, javaScriptEnabled, viewport: PHONE });
  await guestCheckout(guest.page, request, `buyer@${domain}`);
  await expect(guest.page.getByText(EMAIL_REFUSED).first()).toBeVisible();
  await expect(guest.page).not.toHaveURL(/\/pay\/sandbox\//);
  await expect(guest.page.getByTestId("cart-count")).toHaveText("1");
  await guest.context.close();

  await page.goto(`/admin/blocklist?search=${domain}`);
  await page.getByRole("button", { name: `Remove *@${domain}` }).click();
  await expect(page.getByText(`*@${domain} is no longer refused`).first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: `*@${domain}` })).toHaveCount(0);
});

test("support reads a customer and the blocklist but gets no change forms, and no coupons", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const customer = await newAccount(request, testInfo, "readonly");
  const support = await newStaff(request, testInfo, "support");
  await signInThroughForm(page, support.username, support.password, "/admin/customers");
  const nav = await backOfficeNav(page);
  await expect(nav.getByRole("link", { name: "Customers" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Blocklist" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Coupons" })).toHaveCount(0);

  await page.getByLabel("Search customers").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: customer.email }).click();
  await expect(page.getByRole("heading", { name: customer.email })).toBeVisible();
  await expect(page.getByRole("heading", { name: "Balance ledger" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Adjust balance" })).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Block", exact: true })).toHaveCount(0);
  await expectNoOverflow(page, "/admin/customers/{id} as support");

  await page.goto("/admin/blocklist");
  await expect(page.getByRole("heading", { name: "Blocklist" })).toBeVisible();
  await expect(page.getByRole("button", { name: "Add to blocklist" })).toHaveCount(0);
  expect((await page.goto("/admin/coupons"))?.status()).toBe(404);

  const found = await call<{ records: { _id: string }[] }>(
    request,
    "GET",
    `/v1/admin/customers?search=${encodeURIComponent(customer.email)}`,
    undefined,
    support.token,
  );
  const customerId = found.records[0]._id;
  const refused = await request.post(`/v1/admin/customers/${customerId}/balance`, {
    data: { direction: "credit", amount: 5, reason: "support tried" },
    headers: { authorization: `Bearer ${support.token}` },
  });
  expect(refused.status()).toBe(403);
});

test("a manager's own balance is refused with a clear message and stays as it was (ADR 035)", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const manager = await newStaff(request, testInfo, "manager");
  await signInThroughForm(page, manager.username, manager.password, "/admin/customers");
  await page.getByLabel("Search customers").fill(manager.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: manager.email }).click();
  await expect(page.getByRole("heading", { name: manager.email })).toBeVisible();

  await page.getByLabel("Change").selectOption("credit");
  await page.getByLabel("Amount (USD)").fill("10000");
  await page.getByLabel("Reason", { exact: true }).fill("My own bonus");
  await page.getByRole("button", { name: "Adjust balance" }).click();
  await expect(
    page.getByText(
      "You cannot change your own balance. Another owner or manager can do it, and the audit log names them.",
    ),
  ).toBeVisible();
  await expect(page.getByTestId("customer-balance")).toHaveText("$0.00");
  await expect(page.getByRole("table", { name: "Balance ledger" })).toHaveCount(0);
  await expectNoOverflow(page, "/admin/customers/{own id}");
});
