import { expect, type Page, test } from "@playwright/test";
import { expectNoOverflow } from "../support/e2e-staff";
import { onlyInPairedProject } from "../support/e2e-projects";
import { onlyInProject } from "../support/e2e-projects";

/*
 * Lite mode (issue 18): a browser that sends `Save-Data: on`, or a visitor who turns Lite mode on in the
 * footer, gets pages with no script at all, and every page still works. JS on and off, phone and desktop.
 */

/** Scripts a browser would run: JSON-LD data blocks are not code. */
const RUNNABLE = /<script(?![^>]*type="application\/ld\+json")[\s>]/g;
const runnableScripts = (page: Page) => page.locator('script:not([type="application/ld+json"])').count();

test.describe("what the server sends", () => {
  onlyInProject("js", "plain HTTP requests, no browser: once is enough (ADR 062)");

  test("Save-Data: on gets the same pages without a single script, and others still get theirs", async ({
    request,
  }) => {
    for (const path of ["/", "/shop", "/faqs", "/find-order", "/feedback", "/login"]) {
      const lite = await request.get(path, { headers: { "Save-Data": "on" } });
      expect(lite.status(), path).toBe(200);
      const html = await lite.text();
      expect(html.match(RUNNABLE), `${path} with Save-Data`).toBeNull();
      // The landing page has its own footer; every other page has the store's, which says why.
      if (path !== "/") expect(html).toContain("your browser asks to save data");
      // The anonymous page cache keeps the two apart: the next ordinary visitor still gets the scripts.
      const ordinary = await (await request.get(path)).text();
      expect(ordinary.match(RUNNABLE)?.length ?? 0, path).toBeGreaterThan(0);
    }
  });
});

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test.describe(`at ${viewport.name} width`, () => {
    onlyInPairedProject(viewport.name as "phone" | "desktop");

    test(`the footer's switch turns Lite mode on and off, and the shop works in it (${viewport.name})`, async ({
      page,
    }) => {
      await page.setViewportSize(viewport);
      await page.goto("/shop");
      const footer = page.getByRole("contentinfo");
      await footer.getByRole("button", { name: "Turn Lite mode on" }).click();
      await expect(page).toHaveURL(/\/shop$/);
      await expect(footer.getByText("Lite mode is on: pages load without JavaScript.")).toBeVisible();
      expect(await runnableScripts(page)).toBe(0);
      await expectNoOverflow(page, "/shop in Lite mode");

      // A product opens as its own page and goes into the cart by plain forms.
      await page
        .getByRole("link", { name: /Streamora Premium Private/ })
        .first()
        .click();
      const dialog = page.getByRole("dialog", { name: "Streamora Premium Private" });
      await expect(dialog).toBeVisible();
      expect(await runnableScripts(page)).toBe(0);

      await page.goto("/faqs");
      expect(await runnableScripts(page)).toBe(0);
      await page.getByRole("contentinfo").getByRole("button", { name: "Turn Lite mode off" }).click();
      await expect(page).toHaveURL(/\/faqs$/);
      await expect(page.getByRole("contentinfo").getByRole("button", { name: "Turn Lite mode on" })).toBeVisible();
      expect(await runnableScripts(page)).toBeGreaterThan(0);
    });
  });
}
