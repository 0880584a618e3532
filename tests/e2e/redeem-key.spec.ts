import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { REDEEM_KEY_INVALID } from "../../contract/redeem-key";
import { call } from "../support/e2e-api";
import { ownerToken } from "../support/e2e-staff";

/*
 * Journey 14 (redeem a key): a new user enters an email, a demo key and the human check on /redeem-key and
 * lands on the delivered order; a used or made-up key gets one and the same refusal. JS on and off, at phone
 * width and on a desktop. Each test spends its own demo key of the seed (api/db/demo-feedback.ts), so the js
 * and no-js projects never race for one.
 */

/** The builtin human check accepts a token 2 s after it was issued; a person is never that quick. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;

const KEYS = {
  js: { desktop: "DEMO6-VPN00-KEY00-00006", phone: "DEMO8-STRM0-KEY00-00008" },
  "no-js": { desktop: "DEMO7-VPN00-KEY00-00007", phone: "demo9 strm0 key00 00009" },
} as const;

function demoKey(testInfo: TestInfo, layout: "desktop" | "phone"): string {
  return KEYS[testInfo.project.name as keyof typeof KEYS][layout];
}

/** The demo product each key pays for (api/db/demo-feedback.ts): its first option. */
const KEY_PRODUCTS = { VPN00: "Veilnet VPN Private", STRM0: "Streamora Premium Private" } as const;

/**
 * Other specs buy the demo plans, so the key's option may be sold out by the time this spec runs: the owner
 * imports one fresh account for it first, as staff would before handing out keys.
 */
async function stockForKey(request: APIRequestContext, key: string, testInfo: TestInfo) {
  const group = key.toUpperCase().split(/[\s-]+/)[1] as keyof typeof KEY_PRODUCTS;
  const products = await call<{ _id: string; title: string }[]>(request, "GET", "/v1/product/read");
  const product = products.find((candidate) => candidate.title === KEY_PRODUCTS[group])!;
  const [option] = await call<{ _id: string }[]>(request, "GET", `/v1/product/option/read/${product._id}`);
  const account = `keystock.${testInfo.project.name}.${Date.now().toString(36)}${testInfo.workerIndex}@mail.example`;
  await call(
    request,
    "POST",
    `/v1/admin/stock/${option._id}/import`,
    { text: `${account}:pw`, label: "redeem-key spec" },
    await ownerToken(request),
  );
}

let counter = 0;
function newEmail(testInfo: TestInfo): string {
  counter++;
  return `redeem_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}@example.com`;
}

/** Fills and posts the form, waiting first until the human-check token is old enough to be accepted. */
async function redeem(page: Page, email: string, key: string) {
  await page.goto("/redeem-key");
  const renderedAt = Date.now();
  await expect(page.getByRole("heading", { level: 1, name: "Redeem Key" })).toBeVisible();
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Key").fill(key);
  const wait = HUMAN_CHECK_MIN_AGE_MS - (Date.now() - renderedAt);
  if (wait > 0) await page.waitForTimeout(wait);
  await page.getByRole("button", { name: "Redeem Key" }).click();
}

async function expectDeliveredKeyOrder(page: Page) {
  await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
  await expect(page.getByRole("status").filter({ hasText: "Your key is redeemed" })).toBeVisible();
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  await expect(page.getByText("Redeemed key", { exact: true })).toBeVisible();
  const card = page.getByTestId("order-product");
  expect((await card.getByRole("textbox", { name: "Username" }).first().inputValue()).length).toBeGreaterThan(0);
  expect((await card.getByRole("textbox", { name: "Password" }).first().inputValue()).length).toBeGreaterThan(0);
}

async function expectRefused(page: Page) {
  await expect(page).toHaveURL(/\/redeem-key$/);
  await expect(page.getByText(REDEEM_KEY_INVALID)).toBeVisible();
}

test("a new user redeems a key and gets the order; the same key again and a made-up key are refused alike", async ({
  page,
  request,
}, testInfo) => {
  const key = demoKey(testInfo, "desktop");
  await stockForKey(request, key, testInfo);
  await redeem(page, newEmail(testInfo), key);
  await expectDeliveredKeyOrder(page);

  await redeem(page, newEmail(testInfo), key);
  await expectRefused(page);

  await redeem(page, newEmail(testInfo), "7KQ2M-9XHT4-ZZZZZ-00000");
  await expectRefused(page);
});

test("at phone width the page fits and a key written in small letters and spaces is redeemed", async ({
  page,
  request,
}, testInfo) => {
  await stockForKey(request, demoKey(testInfo, "phone"), testInfo);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/redeem-key");
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);
  // Nothing hides the submit button: scrolled to, it is wholly on the screen.
  const submit = page.getByRole("button", { name: "Redeem Key" });
  await submit.scrollIntoViewIfNeeded();
  await expect(submit).toBeInViewport({ ratio: 1 });

  await redeem(page, newEmail(testInfo), demoKey(testInfo, "phone").toLowerCase());
  await expectDeliveredKeyOrder(page);
  const after = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(after).toBeLessThanOrEqual(0);
});
