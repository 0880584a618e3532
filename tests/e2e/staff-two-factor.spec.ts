import { expect, test } from "@playwright/test";
import { generateSync } from "otplib";
import { expectNoOverflow, newStaff, signInThroughForm, backOfficeNav } from "../support/e2e-staff";

/*
 * Staff two-factor sign-in (issue 16, ADR 027), JS on and off, at a phone width and on a desktop: a staff
 * member turns it on under Security with a code computed here as an authenticator app would, keeps the
 * recovery codes, and signs in again with password and code. The owner's policy and the refusals are
 * proven in tests/api/staff-two-factor.test.ts (a policy switched here would meet the other specs).
 */

const step = () => Math.floor(Date.now() / 1000 / 30);
const codeAt = (secret: string, at: number) => generateSync({ secret, epoch: at * 30 });

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
]) {
  test(`a staff member turns on two-factor sign-in and signs in with a code (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const staff = await newStaff(request, testInfo, "support");
    await signInThroughForm(page, staff.username, staff.password);
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await (await backOfficeNav(page)).getByRole("link", { name: "Security" }).click();
    await expect(page.getByRole("heading", { name: "Two-factor sign-in: off" })).toBeVisible();
    await page.getByRole("button", { name: "Set up two-factor sign-in" }).click();
    await expect(page.getByRole("img", { name: "QR code for your authenticator app" })).toBeVisible();
    const secret = (await page.locator("code").first().textContent())!.trim();
    await expectNoOverflow(page, "/admin/security, scan step");

    await page.getByLabel("Code").fill("000000");
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect(page.getByText(/That code is not right/)).toBeVisible();
    await page.getByLabel("Code").fill(codeAt(secret, step()));
    await page.getByRole("button", { name: "Turn on" }).click();
    await expect(page.getByRole("list", { name: "Recovery codes" }).getByRole("listitem")).toHaveCount(10);

    await page.context().clearCookies();
    await signInThroughForm(page, staff.username, staff.password);
    await expect(page.getByRole("heading", { name: "Two-factor sign-in" })).toBeVisible();
    await expectNoOverflow(page, "/login, code step");
    await page.getByLabel("Code").fill(codeAt(secret, step() + 1));
    await page.getByRole("button", { name: "Continue" }).click();
    await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
    await page.goto("/admin/security");
    await expect(page.getByRole("heading", { name: "Two-factor sign-in: on" })).toBeVisible();
    await expect(page.getByText("10 recovery codes left.")).toBeVisible();
  });
}
