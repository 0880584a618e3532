import { expect, test } from "@playwright/test";
import { onlyInProject } from "../support/e2e-projects";

/* Header, footer, cart icon and the not-found page, with JS on and off. */

test("the guest header links the main pages and highlights the active tab", async ({ page }) => {
  await page.goto("/shop");
  const header = page.getByRole("banner");
  const main = header.getByRole("navigation", { name: "Main" });
  await expect(main.getByRole("link")).toHaveText(["Shop", "Feedback", "Find Order"]);
  await expect(main.getByRole("link", { name: "Shop" })).toHaveAttribute("aria-current", "page");
  await expect(main.getByRole("link", { name: "Feedback" })).not.toHaveAttribute("aria-current", "page");
  await expect(header.getByRole("link", { name: "Sign In" })).toHaveAttribute("href", "/login");
  await expect(header.getByRole("link", { name: "Create Account" })).toHaveAttribute("href", "/signup");
  await expect(page.getByTestId("cart-count")).toHaveText("0");
});

test("the cart icon opens the side panel over the current page and closing keeps the page", async ({ page }) => {
  await page.goto("/shop?q=pro");
  await page.getByRole("link", { name: /^Cart, 0 items/ }).click();
  await expect(page).toHaveURL(/\/shop\?q=pro&cart=open$/);
  const panel = page.getByRole("dialog", { name: "Your Cart" });
  await expect(panel.getByText("Your cart is empty.")).toBeVisible();
  await expect(page.getByRole("searchbox", { name: "Search products" })).toHaveValue("pro");
  await panel.getByRole("link", { name: "Close cart" }).click();
  await expect(page).toHaveURL(/\/shop\?q=pro$/);
  await expect(panel).toHaveCount(0);
});

test.describe("what the server sends", () => {
  onlyInProject("no-js", "the footer's links are the server's markup, the same with JavaScript (ADR 062)");

  test("the footer links the site and opens social links in a new tab", async ({ page, request }) => {
    const socialLinks = (
      (await (await request.get("/v1/social_link/read")).json()) as { payload: { name: string; link: string }[] }
    ).payload;
    await page.goto("/shop");
    const footer = page.getByRole("contentinfo");
    for (const [name, href] of [
      ["Home", "/"],
      ["Shop", "/shop"],
      ["Feedback", "/feedback"],
      ["Redeem Key", "/redeem-key"],
      ["Find Order", "/find-order"],
      ["FAQ", "/faqs"],
      ["Contact", "/contact"],
      ["Terms of Service", "/terms-of-service"],
      ["Privacy Policy", "/privacy-policy"],
      ["Sign In", "/login"],
      ["Create Account", "/signup"],
    ]) {
      await expect(footer.getByRole("navigation").getByRole("link", { name, exact: true })).toHaveAttribute(
        "href",
        href,
      );
    }
    await expect(footer.getByRole("link", { name: "Store home" })).toHaveAttribute("href", "/");
    await expect(footer).toContainText(`© ${new Date().getUTCFullYear()} Store`);

    expect(socialLinks.length).toBeGreaterThan(0);
    for (const social of socialLinks) {
      const link = footer.getByRole("link", { name: `${social.name} (opens in a new tab)` });
      await expect(link).toHaveAttribute("href", social.link);
      await expect(link).toHaveAttribute("target", "_blank");
      await expect(link).toHaveAttribute("rel", "noopener noreferrer");
    }
  });
});

test("an unknown path is a 404 page", async ({ page }) => {
  const response = await page.goto("/this/page/does-not-exist");
  expect(response?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();
  await page.getByRole("main").getByRole("link", { name: "Go to the shop" }).click();
  await expect(page).toHaveURL(/\/shop$/);
});

test("the shop, a product dialog and the cart panel have no detectable accessibility violations", async ({
  page,
  request,
  javaScriptEnabled,
}) => {
  test.skip(!javaScriptEnabled, "axe runs as a script in the page");
  // Five full axe runs take a while on a busy machine.
  test.setTimeout(120_000);
  const { default: AxeBuilder } = await import("@axe-core/playwright");
  const products = (
    (await (await request.get("/v1/product/read")).json()) as { payload: { _id: string; totalStock: number }[] }
  ).payload;
  const product = products.find((candidate) => candidate.totalStock > 0) ?? products[0];
  for (const path of ["/shop", `/shop/${product._id}`, "/shop?cart=open", "/cart", "/no-such-page"]) {
    await page.goto(path);
    const results = await new AxeBuilder({ page }).withTags(["wcag2a", "wcag2aa"]).analyze();
    expect(results.violations.map((violation) => `${path}: ${violation.id} ${violation.nodes[0]?.target}`)).toEqual([]);
  }
});
