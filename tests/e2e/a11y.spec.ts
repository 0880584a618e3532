import AxeBuilder from "@axe-core/playwright";
import { expect, test } from "@playwright/test";

/* An automated accessibility pass (WCAG 2.x A and AA rules) over the landing, FAQ, contact, legal and feedback pages. */

for (const path of ["/", "/faqs", "/contact", "/terms-of-service", "/privacy-policy", "/feedback"]) {
  test(`${path} has no serious or critical accessibility violations`, async ({
    browser,
    baseURL,
    javaScriptEnabled,
  }) => {
    // axe runs as a script in the page, so the no-JS view is checked by blocking the page's own scripts.
    const context = await browser.newContext({ baseURL, javaScriptEnabled: true });
    const page = await context.newPage();
    if (!javaScriptEnabled) await page.route(/\/assets\/.+\.js$/, (route) => route.abort());
    await page.goto(path, { waitUntil: "networkidle" });
    await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
    const results = await new AxeBuilder({ page })
      .withTags(["wcag2a", "wcag2aa", "wcag21a", "wcag21aa", "wcag22aa"])
      .analyze();
    const blocking = results.violations
      .filter((violation) => violation.impact === "serious" || violation.impact === "critical")
      .map((violation) => ({
        rule: violation.id,
        impact: violation.impact,
        help: violation.help,
        targets: violation.nodes.slice(0, 5).map((node) => node.target.join(" ")),
      }));
    await context.close();
    expect(blocking, JSON.stringify(blocking, null, 2)).toEqual([]);
  });
}

test("keyboard focus is visible on the landing page's controls", async ({ page, javaScriptEnabled }) => {
  await page.goto("/");
  // The first Tab lands on the skip link, the next ones on the page's own controls.
  for (let step = 0; step < 3; step++) {
    await page.keyboard.press("Tab");
    const outline = await page.evaluate(() => {
      const active = document.activeElement as HTMLElement | null;
      return active ? getComputedStyle(active).outlineStyle : "none";
    });
    expect(outline, `focus step ${step + 1} (${javaScriptEnabled ? "js" : "no-js"})`).not.toBe("none");
  }
});
