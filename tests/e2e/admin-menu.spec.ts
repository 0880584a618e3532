import { expect, test } from "@playwright/test";
import { E2E_OWNER, backOfficeNav, expectNoOverflow, signInThroughForm } from "../support/e2e-staff";

/*
 * Issue 37 item 8: on a 390 px phone the back-office menu took the first ~330 px of every page. It is folded into
 * a "Sections" button (a <details>, which opens without JavaScript): each page's own heading is in the first screen,
 * and the menu still reaches every section. JS on and off (the two projects).
 */

const PHONE = { width: 390, height: 844 };
const PAGES = ["/admin", "/admin/orders", "/admin/customers", "/admin/staff", "/admin/stock", "/admin/audit"];

test("on a 390 px phone each back-office page shows its heading in the first screen, and the folded menu opens", async ({
  page,
}) => {
  await page.setViewportSize(PHONE);
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page).toHaveURL(/\/admin$/);
  for (const path of PAGES) {
    await page.goto(path);
    const heading = page.getByRole("heading", { level: 1 });
    await expect(heading, path).toHaveCount(1);
    await expect(heading, path).toBeInViewport({ ratio: 1 });
    // Above the page's own heading only the site's header and one line of menu: it starts in the first quarter
    // of the screen (the unfolded menu put it at 418 px).
    expect((await heading.boundingBox())!.y, path).toBeLessThan(PHONE.height / 4);
    // The links wait behind "Sections".
    await expect(page.locator("[data-admin-menu]").getByRole("link", { name: "Audit log" }), path).toBeHidden();
  }

  const nav = await backOfficeNav(page);
  await expect(nav.getByRole("link", { name: "Staff" })).toBeInViewport();
  await expectNoOverflow(page, "/admin/audit with the menu open");
  await nav.getByRole("link", { name: "Staff" }).click();
  await expect(page).toHaveURL(/\/admin\/staff$/);
  await expect(page.getByRole("heading", { level: 1, name: "Staff" })).toBeInViewport({ ratio: 1 });
});
