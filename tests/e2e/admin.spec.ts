import { expect, test } from "@playwright/test";
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
 * The back office's shell, staff roles and audit log (ADR 023), JS on and off, at a phone width and
 * on a desktop, signed in as the owner `npm run admin:create` made for the e2e server.
 */

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`an owner gives an account the support role and finds it in the audit log (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const person = await newAccount(request, testInfo, "promoted");
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    await expect(page).toHaveURL(/\/admin$/);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    const nav = await backOfficeNav(page);
    await expect(nav.getByRole("link", { name: "Staff" })).toBeVisible();
    await expectNoOverflow(page, "/admin");

    await nav.getByRole("link", { name: "Staff" }).click();
    await expect(page.getByRole("heading", { name: "Staff" })).toBeVisible();
    await page.getByLabel("Email", { exact: true }).fill(person.email);
    await page.getByLabel("Role", { exact: true }).selectOption("support");
    await page.getByRole("button", { name: "Save role" }).click();
    await expect(page.getByText(`${person.email} is now Support`).first()).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: person.email })).toContainText("Support");
    await expectNoOverflow(page, "/admin/staff");

    // An unknown account is a form error, and nothing changes.
    await page.getByLabel("Email", { exact: true }).fill("nobody-at-all@example.com");
    await page.getByRole("button", { name: "Save role" }).click();
    await expect(page.getByRole("alert").filter({ hasText: "No account has this email" })).toBeVisible();

    await page.goto("/admin/audit");
    await page.getByLabel("Object", { exact: true }).fill(person.email);
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page).toHaveURL(/object=/);
    const row = page.getByRole("row").filter({ hasText: person.email });
    await expect(row).toHaveCount(1);
    await expect(row).toContainText("staff.role");
    await expect(row).toContainText(E2E_OWNER.email);
    await expect(row).toContainText('role: "customer" → "support"');
    await expectNoOverflow(page, "/admin/audit");
  });
}

test("a guest gets the not-found page, a customer is sent to the dashboard, and the API answers them 401 and 403", async ({
  page,
  request,
}, testInfo) => {
  // As any unknown address (ADR 041; tests/e2e/admin-hidden.spec.ts compares them whole).
  expect((await page.goto("/admin/audit"))?.status()).toBe(404);
  await expect(page.getByRole("heading", { name: "Page not found" })).toBeVisible();

  const customer = await newAccount(request, testInfo, "shopper");
  await signInThroughForm(page, customer.username, customer.password, "/admin");
  await expect(page).toHaveURL(/\/dashboard$/);
  for (const path of ["/admin/staff", "/admin/audit"]) {
    await page.goto(path);
    await expect(page, path).toHaveURL(/\/dashboard$/);
  }
  const api = await request.get("/v1/admin/overview", { headers: { authorization: `Bearer ${customer.token}` } });
  expect(api.status()).toBe(403);
  expect((await request.get("/v1/admin/overview")).status()).toBe(401);
});

test("support reaches the overview but not staff or the audit log, in pages and in the API", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const support = await newStaff(request, testInfo, "support");
  await signInThroughForm(page, support.username, support.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect(page.getByText("Support", { exact: true })).toBeVisible();
  const nav = await backOfficeNav(page);
  await expect(nav.getByRole("link", { name: "Staff" })).toHaveCount(0);
  await expect(nav.getByRole("link", { name: "Audit log" })).toHaveCount(0);
  await expectNoOverflow(page, "/admin as support");
  for (const path of ["/admin/staff", "/admin/audit"]) {
    const response = await page.goto(path);
    expect(response?.status(), path).toBe(404);
  }
  const refused = await request.post("/v1/admin/staff/role", {
    data: { email: support.email, role: "owner" },
    headers: { authorization: `Bearer ${support.token}` },
  });
  expect(refused.status()).toBe(403);
  const me = await call<{ role: string }>(request, "GET", "/v1/admin/me", undefined, support.token);
  expect(me.role).toBe("support");
});
