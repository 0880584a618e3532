import { type Page, expect, test } from "@playwright/test";
import { onlyInProject } from "../support/e2e-projects";

/*
 * The landing page: with JavaScript a full-page scroller (dots, keys, wheel), without it an ordinary
 * page with anchor links. The demo data has an announcement and FAQs.
 */

const SECTIONS = [
  { id: "hero", dot: "Welcome", heading: "Premium subscriptions for less, delivered in seconds" },
  { id: "features", dot: "Why us", heading: "Why customers stay with us" },
  { id: "payments", dot: "Payments", heading: "Pay the way you like" },
  { id: "faq", dot: "FAQ", heading: "Questions, answered" },
  { id: "cta", dot: "Get started", heading: "Ready when you are" },
] as const;

const dot = (page: Page, label: string) =>
  page.getByRole("navigation", { name: "Page sections" }).getByRole("link", { name: label });
const announcement = (page: Page) => page.getByRole("complementary", { name: "Announcement" });

async function expectOnSection(page: Page, index: number, timeout?: number) {
  const section = SECTIONS[index];
  await expect(dot(page, section.dot)).toHaveAttribute("aria-current", "true", { timeout });
  await expect(page.getByRole("heading", { name: section.heading })).toBeInViewport({ timeout });
}

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the scroller needs JavaScript");
  // Tall enough that every demo section fits, so each key press moves exactly one section.
  test.use({ viewport: { width: 1280, height: 900 } });

  test("keys move between sections and the dots follow", async ({ page }) => {
    await page.goto("/");
    await expectOnSection(page, 0);
    // Only one dot is current at a time.
    await expect(page.locator("[aria-current='true']")).toHaveCount(1);

    // Each change locks the scroller for about 1.2 s, so a key pressed during the lock does nothing.
    const press = async (key: string, expected: number) => {
      await expect(async () => {
        await page.keyboard.press(key);
        await expectOnSection(page, expected, 1_000);
      }).toPass({ intervals: [200], timeout: 8_000 });
    };
    await press("ArrowDown", 1);
    await expect(page).toHaveURL(/#features$/);
    await press("PageDown", 2);
    await press("End", 4);
    await press("ArrowUp", 3);
    await press("PageUp", 2);
    await press("Home", 0);
  });

  test("a dot moves straight to its section", async ({ page }) => {
    await page.goto("/");
    await dot(page, "Payments").click();
    await expectOnSection(page, 2);
    await expect(page).toHaveURL(/#payments$/);
  });

  test("leaving the FAQ by wheel takes a second gesture, with a hint", async ({ page }) => {
    await page.goto("/");
    await dot(page, "FAQ").click();
    await expectOnSection(page, 3);
    await page.waitForTimeout(1300); // the section-change lock

    await page.mouse.move(640, 450);
    await page.mouse.wheel(0, 200);
    await expect(page.getByRole("status")).toHaveText("Swipe down again to continue");
    await expectOnSection(page, 3);

    await page.waitForTimeout(600);
    await page.mouse.wheel(0, 200);
    await expectOnSection(page, 4);
    // The hint is gone once the section changed.
    await expect(page.getByRole("status")).toHaveText("");
  });

  test("the announcement hides when dismissed", async ({ page }) => {
    await page.goto("/");
    await expect(announcement(page)).toContainText("ethically sourced");
    await announcement(page).getByRole("button", { name: "Dismiss announcement" }).click();
    await expect(announcement(page)).toHaveCount(0);
  });

  test("the announcement stays until the visitor leaves the first section", async ({ page }) => {
    await page.goto("/");
    await expect(announcement(page)).toBeVisible();
    await page.keyboard.press("ArrowDown");
    await expectOnSection(page, 1);
    await expect(announcement(page)).toHaveCount(0);
    await dot(page, "Welcome").click();
    await expectOnSection(page, 0);
    await expect(announcement(page)).toHaveCount(0);
  });

  test("the feature pairs can be changed by hand and paused", async ({ page }) => {
    await page.goto("/#features");
    const cards = page.locator("#feature-cards article");
    await expect(cards.filter({ visible: true })).toHaveCount(2);
    await expect(page.getByRole("heading", { name: "Ethically sourced" })).toBeVisible();
    await page.getByRole("button", { name: "Next features" }).click();
    await expect(page.getByRole("heading", { name: "Instant replacement" })).toBeVisible();
    await expect(page.getByRole("heading", { name: "Ethically sourced" })).toBeHidden();
    await page.getByRole("button", { name: "Pause rotation" }).click();
    await expect(page.getByRole("button", { name: "Resume rotation" })).toBeVisible();
  });
});

test.describe("with JavaScript on a touch screen", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the scroller needs JavaScript");
  test.use({ viewport: { width: 1280, height: 900 }, hasTouch: true });

  /** A one-finger swipe from y0 to y1, as the browser would report it. */
  async function swipe(page: Page, y0: number, y1: number) {
    await page.evaluate(
      ([from, to]) => {
        const target = document.elementFromPoint(640, from) ?? document.body;
        const touch = (y: number) => new Touch({ identifier: 1, target, clientX: 640, clientY: y });
        const fire = (type: string, y: number) =>
          target.dispatchEvent(
            new TouchEvent(type, {
              bubbles: true,
              cancelable: true,
              touches: type === "touchend" ? [] : [touch(y)],
              changedTouches: [touch(y)],
            }),
          );
        fire("touchstart", from);
        for (let step = 1; step <= 5; step++) fire("touchmove", from + ((to - from) * step) / 5);
        fire("touchend", to);
      },
      [y0, y1],
    );
  }

  test("a swipe up moves to the next section, a swipe down back", async ({ page }) => {
    await page.goto("/");
    await expectOnSection(page, 0);
    await swipe(page, 700, 300);
    await expectOnSection(page, 1);
    await page.waitForTimeout(1300);
    await swipe(page, 300, 700);
    await expectOnSection(page, 0);
  });
});

test.describe("feature rotation", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "rotation needs JavaScript");

  test("pairs rotate every 6 s and a manual change holds them for 10 s", async ({ page }) => {
    await page.clock.install();
    await page.goto("/#features");
    const first = page.getByRole("heading", { name: "Ethically sourced" });
    const second = page.getByRole("heading", { name: "Instant replacement" });
    await expect(first).toBeVisible();
    await expect(second).toBeHidden();

    await page.clock.runFor(6_100);
    await expect(second).toBeVisible();
    await expect(first).toBeHidden();

    await page.getByRole("button", { name: "Previous features" }).click();
    await expect(first).toBeVisible();
    await page.clock.runFor(7_000);
    await expect(first).toBeVisible();
    await page.clock.runFor(3_200);
    await expect(second).toBeVisible();
  });
});

test.describe("without JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => javaScriptEnabled, "checks the plain page");

  test("all five sections are there to read, one after the other", async ({ page }) => {
    await page.goto("/");
    for (const section of SECTIONS) {
      const heading = page.getByRole("heading", { name: section.heading });
      await heading.scrollIntoViewIfNeeded();
      await expect(heading).toBeVisible();
    }
    for (const stat of ["35,000+", "1,500+", "300+"]) await expect(page.getByText(stat, { exact: true })).toBeVisible();
    // All four feature cards, not one pair.
    await expect(page.locator("#feature-cards article").filter({ visible: true })).toHaveCount(4);
    // The gateways this store's checkout offers (the e2e server: the sandbox, and the balance once signed in).
    for (const method of ["Store balance", "Sandbox"]) {
      await expect(page.locator("#payments").getByText(method, { exact: true })).toBeVisible();
    }
    // The FAQ is plain <details>: it opens without JavaScript.
    const question = page.locator("#faq summary").first();
    await question.click();
    await expect(page.locator("#faq details").first()).toHaveAttribute("open", "");
    await expect(page.getByRole("link", { name: "Go to the shop" })).toHaveAttribute("href", "/shop");
    // No dot claims a section it cannot follow.
    await expect(page.locator("[aria-current='true']")).toHaveCount(0);
  });

  test("the dots are anchor links to the sections", async ({ page }) => {
    await page.goto("/");
    for (const section of SECTIONS) {
      await expect(dot(page, section.dot)).toHaveAttribute("href", `#${section.id}`);
    }
    await dot(page, "FAQ").click();
    await expect(page).toHaveURL(/#faq$/);
    await expect(page.getByRole("heading", { name: "Questions, answered" })).toBeInViewport();
    await page.getByRole("link", { name: "Why choose us" }).click();
    await expect(page).toHaveURL(/#features$/);
    await expect(page.getByRole("heading", { name: "Why customers stay with us" })).toBeInViewport();
  });

  test("the announcement is dismissed with a form post and stays dismissed", async ({ page }) => {
    await page.goto("/");
    await expect(announcement(page)).toContainText("ethically sourced");
    await announcement(page).getByRole("button", { name: "Dismiss announcement" }).click();
    await expect(page).toHaveURL(/\/$/);
    await expect(announcement(page)).toHaveCount(0);
    await page.reload();
    await expect(announcement(page)).toHaveCount(0);
    await expect(page.getByRole("heading", { name: SECTIONS[0].heading })).toBeVisible();
  });
});

test.describe("what the server sends", () => {
  onlyInProject("no-js", "the footer's links are the server's markup, the same with JavaScript (ADR 062)");

  test("the footer links lead to the legal pages, support, orders and keys", async ({ page }) => {
    await page.goto("/");
    const footer = page.getByRole("navigation", { name: "Footer" });
    await expect(footer.getByRole("link", { name: "Terms of Service" })).toHaveAttribute("href", "/terms-of-service");
    await expect(footer.getByRole("link", { name: "Privacy Policy" })).toHaveAttribute("href", "/privacy-policy");
    await expect(footer.getByRole("link", { name: "Redeem Key" })).toHaveAttribute("href", "/redeem-key");
    await expect(footer.getByRole("link", { name: "Find Order" })).toHaveAttribute("href", "/find-order");
    await expect(footer.getByRole("link", { name: "FAQ" })).toHaveAttribute("href", "/faqs");
    // A guest writes from the contact form; signed in, the tickets (tests/e2e/contact.spec.ts, faq-legal.spec.ts).
    await expect(footer.getByRole("link", { name: "Contact", exact: true })).toHaveAttribute("href", "/contact");
  });
});

test("the landing page has the site header and one footer, its own (issue 38)", async ({ page }) => {
  await page.goto("/");
  await expect(page.getByRole("heading", { level: 1 })).toBeVisible();
  await expect(page.getByRole("link", { name: /^Cart, \d+ items?$/ })).toBeVisible();
  await expect(page.getByRole("navigation", { name: "Footer" })).toHaveCount(1);
});
