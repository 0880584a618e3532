import { expect, test } from "@playwright/test";
import { E2E_OWNER, expectNoOverflow, signInThroughForm } from "../support/e2e-staff";

/*
 * The back office's overview (issue 16), JS on and off, at a phone width and on a desktop: sales, the
 * orders chart drawn on the server with its table, best sellers, low stock and what waits for staff.
 * The figures themselves are proven in tests/api/admin-overview.test.ts.
 */

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`the owner's overview shows sales, the orders chart and what waits (${viewport.name})`, async ({ page }) => {
    await page.setViewportSize(viewport);
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    for (const heading of ["Waiting for staff", "Sales", "Best sellers, last 30 days", "Low stock"]) {
      await expect(page.getByRole("heading", { name: heading })).toBeVisible();
    }
    await expect(page.getByRole("link", { name: "Tickets waiting" })).toHaveAttribute("href", "/admin/tickets");
    await expect(page.getByText("Last 30 days", { exact: true })).toBeVisible();
    const chart = page.getByTestId("orders-chart");
    await expect(chart).toBeVisible();
    await expect(chart.locator("rect")).toHaveCount(30);
    await page.getByText("Orders per day as a table").click();
    await expect(page.getByRole("row")).not.toHaveCount(0);
    await expectNoOverflow(page, "/admin overview");
  });
}
