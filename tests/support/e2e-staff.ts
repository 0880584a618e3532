import { type APIRequestContext, expect, type Locator, type Page, type TestInfo } from "@playwright/test";
import { call } from "./e2e-api";
import { E2E_OWNER } from "./e2e-owner";

export { E2E_OWNER };

/** Signs this browser in through the sign-in form and lands on `redirectTo`. */
export async function signInThroughForm(page: Page, username: string, password: string, redirectTo = "/admin") {
  await page.goto(`/login?${new URLSearchParams({ redirectTo })}`);
  await page.getByLabel("Username or email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
}

let counter = 0;
/** A new customer account (registered through /v1) with its token and sign-in. */
export async function newAccount(request: APIRequestContext, testInfo: TestInfo, prefix: string) {
  counter++;
  const username = `${prefix}_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const email = `${username}@example.com`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email,
    password,
    password2: password,
  });
  return { username, email, password, token };
}

/** The owner's API token, signed in through /v1 (for setting up other staff). */
export async function ownerToken(request: APIRequestContext): Promise<string> {
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/login", {
    username: E2E_OWNER.email,
    password: E2E_OWNER.password,
  });
  return token;
}

/** A new account given `role` by the owner through /v1/admin/staff/role, with a token of its new role. */
export async function newStaff(request: APIRequestContext, testInfo: TestInfo, role: "manager" | "support") {
  const account = await newAccount(request, testInfo, role);
  await call(request, "POST", "/v1/admin/staff/role", { email: account.email, role }, await ownerToken(request));
  // The change ended the account's sessions (ADR 035): it signs in again in its new role.
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/login", {
    username: account.username,
    password: account.password,
  });
  return { ...account, token };
}

/** Nothing on the page is wider than the window. */
export async function expectNoOverflow(page: Page, where: string) {
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow, where).toBeLessThanOrEqual(0);
}

/**
 * The back office's menu. Below the lg width it is folded into a <details> (issue 37): opened here first, as a
 * person on a phone taps "Sections" (it opens without JavaScript too). Call it again after each page load.
 */
export async function backOfficeNav(page: Page): Promise<Locator> {
  const folded = page.locator("details[data-admin-menu]");
  // The back office is on the page once its menu is: folded (a phone) or the column on the left (wide).
  await page.locator("details[data-admin-menu] > summary, aside nav").filter({ visible: true }).first().waitFor();

  if ((await folded.locator("summary").isVisible()) && (await folded.getAttribute("open")) === null) {
    await folded.locator("summary").click();
  }
  return page.getByRole("navigation", { name: "Back office" });
}
