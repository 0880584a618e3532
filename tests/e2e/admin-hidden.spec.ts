import { type Page, expect, test } from "@playwright/test";
import { newAccount, signInThroughForm } from "../support/e2e-staff";

/*
 * Issue 25 item 10 (ADR 041): to anyone who is not staff, the back office is an unknown address like any
 * other: the same status, title and page as /no-such-page, signed out (the not-found page) and signed in
 * (sent on to /dashboard), JS on and off, at a phone width.
 */

const BACK_OFFICE = ["/admin", "/admin/audit", "/admin/staff", "/admin/customers", "/admin/login"];

/** What a visitor gets at `path`: where they end up, the status, the title and the whole visible page. */
async function visit(page: Page, path: string) {
  const response = await page.goto(path);
  return {
    path: new URL(page.url()).pathname,
    status: response?.status(),
    title: await page.title(),
    text: await page.locator("body").innerText(),
  };
}

test.beforeEach(async ({ page }) => {
  await page.setViewportSize({ width: 390, height: 844 });
});

test("signed out, the back office is the not-found page of any unknown address", async ({ page }) => {
  const unknown = await visit(page, "/no-such-page-at-all");
  expect(unknown).toMatchObject({ status: 404, title: "Page not found | Store" });
  for (const path of BACK_OFFICE) {
    expect(await visit(page, path), path).toEqual({ ...unknown, path });
  }
});

test("a signed-in customer is sent on from the back office as from any unknown address", async ({
  page,
  request,
}, testInfo) => {
  const customer = await newAccount(request, testInfo, "curious");
  await signInThroughForm(page, customer.username, customer.password, "/dashboard");
  await expect(page).toHaveURL(/\/dashboard$/);
  const unknown = await visit(page, "/no-such-page-at-all");
  expect(unknown).toMatchObject({ path: "/dashboard", status: 200 });
  expect(unknown.title).not.toContain("Back office");
  for (const path of BACK_OFFICE) {
    expect(await visit(page, path), path).toEqual(unknown);
  }
});
