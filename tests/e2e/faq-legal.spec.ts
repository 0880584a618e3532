import { expect, test } from "@playwright/test";
import { onlyInProject } from "../support/e2e-projects";

/*
 * The FAQ, the legal pages, their short addresses, and the files crawlers and browsers ask for.
 * What happens when /v1/faq/read fails is covered without a server in tests/unit/content-fallbacks.test.ts.
 */

test("the FAQ page shows the server's questions as an accordion, and how to reach support", async ({ page }) => {
  await page.goto("/faqs");
  await expect(page.getByRole("heading", { level: 1, name: "Frequently asked questions" })).toBeVisible();
  // This question is in the demo data and not among the built-in defaults.
  const question = page.locator("summary", { hasText: "What is the difference between Private and Semi Private?" });
  const answer = page.getByText("A Private product is used by you alone.");
  await expect(question).toBeVisible();
  await expect(answer).toBeHidden();
  await question.click();
  await expect(answer).toBeVisible();
  await question.press("Enter");
  await expect(answer).toBeHidden();

  const contact = page.locator("#contact");
  await expect(contact.getByRole("heading", { name: /contact support/i })).toBeVisible();
  // A guest reaches support without an account (ADR 039); signed-in customers keep their tickets.
  await expect(contact.getByRole("link", { name: "Contact support" })).toHaveAttribute("href", "/contact");
  await expect(contact.getByRole("link", { name: "Sign in" })).toHaveAttribute("href", "/login");
  // The FAQ keeps the store's header and footer.
  await expect(page.getByRole("navigation", { name: "Main" })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Footer" })).toBeVisible();
});

test("/support leads a guest to the contact form, with the order of an order's Contact Support link", async ({
  page,
}) => {
  await page.goto("/support");
  await expect(page).toHaveURL(/\/contact$/);
  await expect(page.getByRole("heading", { level: 1, name: "Contact Support" })).toBeVisible();
  const orderId = "gWwCti4aIQ7vdHgY-vB4_p";
  await page.goto(`/support?orderId=${orderId}`);
  await expect(page).toHaveURL(`/contact?orderId=${orderId}`);
  await expect(page.getByLabel("Order ID (optional)")).toHaveValue(orderId);
});

// Their short links (/terms, /privacy) redirect permanently: tests/pages/legal-short-links.test.ts.
for (const { path, title, line } of [
  {
    path: "/terms-of-service",
    title: "Terms of Service",
    line: "These terms apply to every purchase from this store.",
  },
  {
    path: "/privacy-policy",
    title: "Privacy Policy",
    line: "This policy explains which personal data the store keeps",
  },
]) {
  test(`${path} shows the configured document without the store's header and footer`, async ({ page }) => {
    await page.goto(path);
    await expect(page.getByRole("heading", { level: 1, name: title })).toBeVisible();
    await expect(page.getByText(line)).toBeVisible();
    // The document's own first line repeats the title; it is not shown twice.
    await expect(page.getByRole("heading", { name: title })).toHaveCount(1);
    await expect(page.getByRole("navigation", { name: "Main" })).toHaveCount(0);
    await expect(page.getByRole("navigation", { name: "Footer" })).toHaveCount(0);
    await expect(page.getByRole("link", { name: "Back to the shop" })).toHaveAttribute("href", "/shop");
  });
}

test.describe("what the server sends", () => {
  onlyInProject("no-js", "the head's tags are the server's markup, the same with JavaScript (ADR 062)");

  test("every public page of this area has a title, a description and social tags", async ({ page }) => {
    for (const path of ["/", "/faqs", "/terms-of-service", "/privacy-policy"]) {
      await page.goto(path);
      const title = await page.title();
      expect(title.length, path).toBeGreaterThan(3);
      const meta = (selector: string) => page.locator(`head meta[${selector}]`).getAttribute("content");
      expect(await meta('name="description"'), path).toMatch(/^.{40,}$/);
      expect(await meta('property="og:title"'), path).toBe(title);
      expect(await meta('property="og:description"'), path).toBe(await meta('name="description"'));
      expect(await meta('property="og:type"'), path).toBe("website");
      expect(await meta('name="twitter:card"'), path).toBe("summary");
      await expect(page.locator('head link[rel="icon"]')).toHaveAttribute("href", "/favicon.svg");
      await expect(page.locator('head link[rel="manifest"]')).toHaveAttribute("href", "/site.webmanifest");
    }
  });
});

test.describe("files for crawlers and browsers", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "plain HTTP: once is enough");

  test("robots.txt names the sitemap and keeps crawlers out of accounts", async ({ request, baseURL }) => {
    const response = await request.get("/robots.txt");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("text/plain; charset=utf-8");
    const body = await response.text();
    expect(body).toContain("User-agent: *");
    expect(body).toContain("Disallow: /dashboard");
    expect(body).toContain(`Sitemap: ${baseURL}/sitemap.xml`);
  });

  test("sitemap.xml lists the public pages with absolute addresses", async ({ request, baseURL }) => {
    const response = await request.get("/sitemap.xml");
    expect(response.status()).toBe(200);
    expect(response.headers()["content-type"]).toBe("application/xml; charset=utf-8");
    const locations = [...(await response.text()).matchAll(/<loc>([^<]+)<\/loc>/g)].map((match) => match[1]);
    expect(locations).toEqual(
      [
        "/",
        "/shop",
        "/feedback",
        "/redeem-key",
        "/find-order",
        "/faqs",
        "/contact",
        "/terms-of-service",
        "/privacy-policy",
      ].map((path) => `${baseURL}${path}`),
    );
  });

  test("the web manifest and the favicon are served with their types", async ({ request }) => {
    const manifest = await request.get("/site.webmanifest");
    expect(manifest.status()).toBe(200);
    expect(manifest.headers()["content-type"]).toContain("application/manifest+json");
    const parsed = (await manifest.json()) as { name: string; start_url: string; icons: { src: string }[] };
    expect(parsed.start_url).toBe("/");
    expect(parsed.icons.map((icon) => icon.src)).toContain("/favicon.svg");

    const favicon = await request.get("/favicon.svg");
    expect(favicon.status()).toBe(200);
    expect(favicon.headers()["content-type"]).toContain("image/svg+xml");
    expect(await favicon.text()).toContain("<svg");
  });
});
