import { expect, type Locator, type Page, test } from "@playwright/test";
import { deliveredOrder, newCustomer, signIn } from "../support/e2e-orders";
import { onlyInProject } from "../support/e2e-projects";

/*
 * Issue 10's layout defects, at a 360/390 px phone and a desktop width, JS on and off: the header fits and every
 * link stays reachable, nothing overflows sideways on any page, toasts and the recent-purchases bell cover
 * nothing needed, /shop is two compact columns on a phone, the footer's social links are icons with labels,
 * credentials are readable in full, and the sign-in cards sit in the middle of a wide screen.
 */

const PHONE = { width: 360, height: 780 };
const DESKTOP = { width: 1280, height: 800 };

const GUEST_PAGES = [
  "/",
  "/shop",
  "/faqs",
  "/find-order",
  "/login",
  "/signup",
  "/forgot",
  "/reset?email=someone%40example.com",
  "/terms-of-service",
  "/privacy-policy",
  "/cart",
  "/feedback",
  "/redeem-key",
  "/contact",
  "/no-such-page",
];
const CUSTOMER_PAGES = ["/dashboard", "/balance", "/tickets", "/settings", "/shop?cart=open"];

type Box = { x: number; y: number; width: number; height: number };
const overlaps = (a: Box, b: Box) =>
  a.x < b.x + b.width && b.x < a.x + a.width && a.y < b.y + b.height && b.y < a.y + a.height;

async function box(locator: Locator): Promise<Box> {
  const found = await locator.boundingBox();
  expect(found, "the element is rendered").not.toBeNull();
  return found!;
}

/** No sideways scrolling, and every visible control of the header lies inside the viewport. */
async function expectFitsViewport(page: Page, path: string) {
  const widths = await page.evaluate(() => ({
    page: document.documentElement.scrollWidth,
    viewport: document.documentElement.clientWidth,
  }));
  expect(widths.page, `${path} scrolls sideways`).toBeLessThanOrEqual(widths.viewport);
  const controls = page.getByRole("banner").locator("a:visible, button:visible, summary:visible");
  for (const control of await controls.all()) {
    const { x, width } = await box(control);
    expect(x, `${path}: a header control starts off screen`).toBeGreaterThanOrEqual(0);
    expect(x + width, `${path}: a header control ends off screen`).toBeLessThanOrEqual(widths.viewport + 0.5);
  }
}

function menuButton(page: Page) {
  return page.getByRole("banner").locator("summary[aria-label='Menu']");
}

/** Opens the phone menu (a <details>, so it opens without JS) and checks each named control in it is on screen. */
async function expectMenuReaches(page: Page, names: (string | RegExp)[]) {
  await menuButton(page).click();
  const viewport = page.viewportSize()!;
  for (const name of names) {
    const control = page.getByRole("banner").getByRole(name === "Log out" ? "button" : "link", { name });
    await expect(control).toBeVisible();
    const { x, y, width, height } = await box(control);
    expect(x + width).toBeLessThanOrEqual(viewport.width);
    expect(y + height).toBeLessThanOrEqual(viewport.height);
  }
}

test("the guest header fits a 360 px phone on every page; the menu reaches every link", async ({ page }) => {
  test.setTimeout(120_000);
  await page.setViewportSize(PHONE);
  for (const path of GUEST_PAGES) {
    await page.goto(path);
    await expectFitsViewport(page, path);
  }
  await page.goto("/shop");
  await expect(page.getByRole("banner").getByRole("link", { name: /^Cart, / })).toBeVisible();
  await expectMenuReaches(page, ["Shop", "Feedback", "Find Order", "Sign In", "Create Account"]);
  await page.getByRole("banner").getByRole("link", { name: "Find Order" }).click();
  await expect(page).toHaveURL(/\/find-order$/);
  await expect(page.getByRole("heading", { level: 1, name: "Find Order" })).toBeVisible();
});

test("signed in, the header fits a 360 px phone on every page; the menu reaches the account's links", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(150_000);
  const customer = await newCustomer(request, testInfo, "phone");
  await signIn(page, customer);
  await page.setViewportSize(PHONE);
  for (const path of [...CUSTOMER_PAGES, ...GUEST_PAGES.slice(0, 4)]) {
    await page.goto(path);
    await expectFitsViewport(page, path);
  }
  await page.goto("/dashboard");
  await expectMenuReaches(page, ["Shop", "Feedback", "Find Order", "Dashboard", "Tickets", /^Balance /, "Settings"]);
  await expect(page.getByRole("banner").getByRole("button", { name: "Log out" })).toBeVisible();
  await page.getByRole("banner").getByRole("link", { name: "Tickets" }).click();
  await expect(page).toHaveURL(/\/tickets$/);

  // A delivered order's page fits too, with its credentials readable in full (wrapped, never cut off).
  const orderId = await deliveredOrder(page, request, customer);
  await page.goto(`/find-order?id=${orderId}`);
  await expectFitsViewport(page, "/find-order?id=...");
  const credentials = page.getByTestId("order-product").getByRole("textbox", { name: /^(Username|Password)$/ });
  expect(await credentials.count()).toBeGreaterThanOrEqual(2);
  for (const field of await credentials.all()) {
    const fits = await field.evaluate((element) => ({
      wide: element.scrollWidth <= element.clientWidth,
      tall: element.scrollHeight <= element.clientHeight + 1,
    }));
    expect(fits, "a credential is cut off").toEqual({ wide: true, tall: true });
    const { x, width } = await box(field);
    expect(x + width).toBeLessThanOrEqual(PHONE.width);
  }
});

test("on a desktop the header shows every link at once and no menu", async ({ page, request }, testInfo) => {
  await page.setViewportSize(DESKTOP);
  await page.goto("/shop");
  await expect(menuButton(page)).toBeHidden();
  const main = page.getByRole("banner").getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link")).toHaveText(["Shop", "Feedback", "Find Order"]);
  await expectFitsViewport(page, "/shop");

  await signIn(page, await newCustomer(request, testInfo, "wide"));
  const header = page.getByRole("banner");
  for (const name of ["Dashboard", "Tickets", "Settings"])
    await expect(header.getByRole("link", { name })).toBeVisible();
  await expect(header.getByRole("button", { name: "Log out" })).toBeVisible();
  await expect(menuButton(page)).toBeHidden();
  await expectFitsViewport(page, "/dashboard");
});

test("the flash toast covers none of the header, on a phone and on a desktop", async ({ page, request }, testInfo) => {
  const customer = await newCustomer(request, testInfo, "toast");
  for (const viewport of [PHONE, DESKTOP]) {
    await page.context().clearCookies();
    await page.setViewportSize(viewport);
    await signIn(page, customer);
    const toast = page.locator("[data-toast-type]");
    await expect(toast).toContainText("Welcome back");
    expect(overlaps(await box(toast), await box(page.getByRole("banner"))), "the toast covers the header").toBe(false);
  }
});

test.describe("the server's layout", () => {
  onlyInProject("no-js", "the layout of the server's markup, which JavaScript does not change (ADR 062)");

  test("/shop is two compact columns on a phone, grouped by category", async ({ page }) => {
    await page.setViewportSize({ width: 390, height: 844 });
    await page.goto("/shop");
    const firstCategory = page.getByRole("main").locator("section[aria-labelledby^='category-']").first();
    await expect(firstCategory.getByRole("heading", { level: 2 })).toBeVisible();
    const cards = firstCategory.locator(".product-card");
    expect(await cards.count()).toBeGreaterThanOrEqual(2);
    const [first, second] = [await box(cards.nth(0)), await box(cards.nth(1))];
    expect(Math.abs(first.y - second.y), "the first two cards share a row").toBeLessThan(1);
    expect(second.x + second.width).toBeLessThanOrEqual(390);
    const height = await page.evaluate(() => document.documentElement.scrollHeight);
    // One card per row made the demo shop about 20,900 px tall; other specs may add a category of their own.
    expect(height).toBeLessThan(12_000);
  });
});

test("the recent-purchases bell is an icon in the page's flow, over no card or control", async ({
  page,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "the social-proof toasts and their bell are JavaScript-only");
  for (const viewport of [{ width: 390, height: 844 }, DESKTOP]) {
    await page.setViewportSize(viewport);
    await page.goto("/shop");
    const bell = page.getByRole("button", { name: /recent purchases$/ });
    await expect(bell).toBeVisible();
    await expect(bell.locator("svg")).toHaveCount(1);
    expect((await bell.innerText()).trim(), "no emoji glyph").toBe("");
    const bellBox = await box(bell);
    const others = page.getByRole("main").locator(".product-card, input, select, button[type='submit']");
    for (const other of await others.all()) {
      if (!(await other.isVisible())) continue;
      expect(overlaps(bellBox, await box(other)), "the bell covers something").toBe(false);
    }
    // In the flow, it scrolls away with the page instead of floating over the cards.
    await page.mouse.wheel(0, 1500);
    await expect.poll(async () => (await bell.boundingBox())?.y ?? 0).toBeLessThan(bellBox.y);
  }
});

test.describe("the server's layout", () => {
  onlyInProject("no-js", "the layout of the server's markup, which JavaScript does not change (ADR 062)");

  test("footer social links are icons with their names", async ({ page }) => {
    for (const viewport of [PHONE, DESKTOP]) {
      await page.setViewportSize(viewport);
      await page.goto("/faqs");
      const socials = page.getByRole("contentinfo").getByRole("list", { name: "Social media" }).getByRole("link");
      expect(await socials.count()).toBeGreaterThan(0);
      for (const link of await socials.all()) {
        const name = (await link.getAttribute("aria-label"))!.replace(" (opens in a new tab)", "");
        await expect(link.locator("svg")).toHaveCount(1);
        await expect(link).toHaveText(name);
      }
      await expectFitsViewport(page, "/faqs");
    }
  });
});

test.describe("the server's layout", () => {
  onlyInProject("no-js", "the layout of the server's markup, which JavaScript does not change (ADR 062)");

  test("sign-in, forgot and reset cards sit in the middle of a desktop", async ({ page }) => {
    await page.setViewportSize(DESKTOP);
    for (const path of ["/login", "/forgot", "/reset?email=someone%40example.com"]) {
      await page.goto(path);
      const card = page
        .getByRole("main")
        .locator("section")
        .filter({ has: page.getByRole("heading", { level: 1 }) });
      const { x, width } = await box(card.first());
      expect(Math.abs(x + width / 2 - DESKTOP.width / 2), `${path} is off centre`).toBeLessThan(24);
    }
  });
});
