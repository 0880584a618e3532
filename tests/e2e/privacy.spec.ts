import { readFile } from "node:fs/promises";
import { type Download, expect, type Page, test } from "@playwright/test";
import { PRIVACY_MESSAGES } from "../../contract/privacy";
import { call } from "../support/e2e-api";
import { E2E_OWNER, expectNoOverflow, newAccount, signInThroughForm } from "../support/e2e-staff";

/*
 * A customer's own data (issue 29) at a phone's width, JS on and off: "Download my data" and "Delete my account" on
 * /settings, the same for staff on a customer's back-office page; and, with JS on, that no page of the storefront or
 * the back office loads anything from another origin, and that pages name their onion twin (ONION_URL is set for the
 * suite in tests/support/e2e-server.ts).
 */

const PHONE = { width: 390, height: 844 };

async function jsonOf(download: Download) {
  expect(download.suggestedFilename()).toMatch(/^store-data-\d{4}-\d{2}-\d{2}\.json$/);
  return JSON.parse(await readFile((await download.path())!, "utf8")) as {
    profile: { email: string; username: string };
    orders: unknown[];
    sessions: { current: boolean }[];
  };
}

async function download(page: Page, start: () => Promise<void>) {
  const [file] = await Promise.all([page.waitForEvent("download"), start()]);
  return jsonOf(file);
}

test("a customer downloads their data and deletes their account from Settings", async ({ page, request }, testInfo) => {
  await page.setViewportSize(PHONE);
  const customer = await newAccount(request, testInfo, "leaving");
  await signInThroughForm(page, customer.username, customer.password, "/settings");
  await expect(page.getByRole("heading", { name: "Settings" })).toBeVisible();
  await expectNoOverflow(page, "/settings");

  const data = await download(page, () => page.getByRole("link", { name: "Download my data" }).click());
  expect(data.profile).toMatchObject({ email: customer.email, username: customer.username });
  expect(JSON.stringify(data)).not.toContain(customer.token);

  const form = page.locator("#settings-delete");
  await expect(form.getByTestId("forfeit-warning")).toContainText("forfeited");
  await form.getByLabel("Your password").fill("not the password");
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(form.getByText(PRIVACY_MESSAGES.wrongPassword)).toBeVisible();
  await expect(page).toHaveURL(/\/settings$/);

  await form.getByLabel("Your password").fill(customer.password);
  await form.getByRole("button", { name: "Delete my account" }).click();
  await expect(page).toHaveURL(/\/$/);
  await expect(page.getByText(PRIVACY_MESSAGES.deleted).first()).toBeVisible();
  await page.goto("/settings");
  await expect(page).toHaveURL(/\/login/);
  const access = await request.get("/v1/user/access", { headers: { authorization: `Bearer ${customer.token}` } });
  expect(access.status()).toBe(401);
});

test("staff download a customer's data and delete the account at their request", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize(PHONE);
  const customer = await newAccount(request, testInfo, "forgetme");
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/customers");
  await page.getByLabel("Search customers").fill(customer.email);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: customer.email }).click();
  await expect(page.getByRole("heading", { name: customer.email })).toBeVisible();
  await expectNoOverflow(page, "/admin/customers/{id}");

  const data = await download(page, () => page.getByRole("button", { name: "Download their data (.json)" }).click());
  expect(data.profile.email).toBe(customer.email);

  await page.getByLabel("Reason for deleting").fill("Asked by ticket to be forgotten");
  await page.getByRole("button", { name: "Delete the account" }).click();
  await expect(page).toHaveURL(/\/admin\/customers$/);
  await expect(page.getByText("The account is deleted").first()).toBeVisible();
  const access = await request.get("/v1/user/access", { headers: { authorization: `Bearer ${customer.token}` } });
  expect(access.status()).toBe(401);
});

test.describe("with JavaScript", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "scripts and fetches load only with JavaScript on");

  /** Visits each path and answers every request made to an origin other than the store's. */
  async function foreignRequests(page: Page, baseURL: string, paths: string[]) {
    const own = new URL(baseURL).origin;
    const foreign: string[] = [];
    page.on("request", (request) => {
      const url = request.url();
      if (/^(data|blob):/.test(url)) return;
      if (new URL(url).origin !== own) foreign.push(`${request.resourceType()} ${url} (on ${page.url()})`);
    });
    for (const path of paths) {
      const response = await page.goto(path);
      expect(response?.status(), path).toBeLessThan(400);
      await page.waitForLoadState("networkidle");
    }
    return foreign;
  }

  test("no page loads anything from another origin: signed out, signed in, and as staff", async ({
    page,
    request,
    baseURL,
  }, testInfo) => {
    test.setTimeout(90_000);
    const products = await call<{ _id: string }[]>(request, "GET", "/v1/product/read");
    const storefront = ["/", "/shop", `/shop/${products[0]._id}`, "/cart", "/faqs", "/feedback", "/find-order"];
    const signedOut = await foreignRequests(page, baseURL!, [
      ...storefront,
      "/login",
      "/signup",
      "/contact",
      "/privacy-policy",
      "/terms-of-service",
    ]);
    const customer = await newAccount(request, testInfo, "origins");
    await signInThroughForm(page, customer.username, customer.password, "/dashboard");
    await expect(page).toHaveURL(/\/dashboard$/);
    const signedIn = await foreignRequests(page, baseURL!, [
      ...storefront,
      "/dashboard",
      "/balance",
      "/tickets",
      "/settings",
      "/slots",
      "/redeem-key",
    ]);
    await page.context().clearCookies();
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin");
    await expect(page).toHaveURL(/\/admin$/);
    const staff = await foreignRequests(page, baseURL!, [
      "/admin",
      "/admin/orders",
      "/admin/customers",
      "/admin/catalogue",
      "/admin/stock",
      "/admin/coupons",
      "/admin/tickets",
      "/admin/content",
      "/admin/audit",
    ]);
    expect({ signedOut, signedIn, staff }).toEqual({ signedOut: [], signedIn: [], staff: [] });
  });

  test("every page names its onion twin, rendered or stored", async ({ request }) => {
    const path = `/faqs?from=onion-${Date.now()}`;
    const rendered = await request.get(path);
    expect(rendered.headers()["x-page-cache"]).toBe("MISS");
    const stored = await request.get(path);
    expect(stored.headers()["x-page-cache"]).toBe("HIT");
    for (const answer of [rendered, stored]) {
      expect(answer.headers()["onion-location"]).toMatch(new RegExp(`^http://[a-z2-7]{56}\\.onion${escape(path)}$`));
    }
    const api = await request.get("/v1/privacy/retention");
    expect(api.headers()["onion-location"]).toBeUndefined();
  });
});

const escape = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");
