import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { REDEEM_KEY_INVALID } from "../../contract/redeem-key";
import { call } from "../support/e2e-api";
import { ownerToken } from "../support/e2e-staff";
import { answerHumanCheckQuestion } from "../support/human-check";

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

/** A key of its own for a test (generated by the owner, with one account in stock for it), so tests never race. */
async function freshKey(request: APIRequestContext, testInfo: TestInfo): Promise<string> {
  const products = await call<{ _id: string; title: string }[]>(request, "GET", "/v1/product/read");
  const product = products.find((candidate) => candidate.title === KEY_PRODUCTS.VPN00)!;
  const [option] = await call<{ _id: string; subOptions: { duration: number }[] }[]>(
    request,
    "GET",
    `/v1/product/option/read/${product._id}`,
  );
  const token = await ownerToken(request);
  const account = `quickkey.${testInfo.project.name}.${Date.now().toString(36)}${testInfo.workerIndex}@mail.example`;
  await call(request, "POST", `/v1/admin/stock/${option._id}/import`, { text: `${account}:pw`, label: "quick" }, token);
  const batch = await call<{ codes: string[] }>(
    request,
    "POST",
    "/v1/admin/keys/generate",
    { optionId: option._id, durationDays: option.subOptions[0].duration, quantity: 1, count: 1 },
    token,
  );
  return batch.codes[0];
}

test("a form sent within a second (a password manager) is met with the question, not an error; answered, the key is redeemed (390 px)", async ({
  page,
  request,
}, testInfo) => {
  const key = await freshKey(request, testInfo);
  const email = newEmail(testInfo);
  await page.setViewportSize({ width: 390, height: 844 });
  await page.goto("/redeem-key");
  const openedAt = Date.now();
  await page.getByLabel("Email Address").fill(email);
  await page.getByLabel("Key").fill(key);
  // Sent within a second of the form appearing (the click then waits for the answer).
  expect(Date.now() - openedAt).toBeLessThan(1_000);
  await page.getByRole("button", { name: "Redeem Key" }).click();

  // The same form comes back with what was typed and a question to answer; nothing says a check failed.
  const form = page.getByRole("main");
  await expect(form.getByRole("group", { name: /^Quick check: What is \d+ plus \d+\?$/ })).toBeVisible();
  await expect(page).toHaveURL(/\/redeem-key$/);
  await expect(page.getByRole("alert")).toHaveCount(0);
  await expect(page.getByText(/human check/i)).toHaveCount(0);
  await expect(page.getByLabel("Email Address")).toHaveValue(email);
  await expect(page.getByLabel("Key")).toHaveValue(key);
  const overflow = await page.evaluate(() => document.documentElement.scrollWidth - window.innerWidth);
  expect(overflow).toBeLessThanOrEqual(0);

  await answerHumanCheckQuestion(form);
  await page.getByRole("button", { name: "Redeem Key" }).click();
  await expectDeliveredKeyOrder(page);
});

test("a wrong choice on the question says so and asks a new one; the right one redeems the key", async ({
  page,
  request,
}, testInfo) => {
  const key = await freshKey(request, testInfo);
  // A made-up key: refused by the check or by the key, the form comes back with the question either way.
  await page.goto("/redeem-key");
  await page.getByLabel("Email Address").fill(newEmail(testInfo));
  await page.getByLabel("Key").fill("7KQ2M-9XHT4-ZZZZZ-00000");
  await page.getByRole("button", { name: "Redeem Key" }).click();

  const form = page.getByRole("main");
  const question = form.getByRole("group", { name: /^Quick check: What is \d+ plus \d+\?$/ });
  const legend = (await question.locator("legend").textContent()) ?? "";
  const [, a, b] = /What is (\d+) plus (\d+)\?/.exec(legend) ?? [];
  const labels = await question
    .getByRole("radio")
    .evaluateAll((radios) => radios.map((radio) => radio.parentElement?.textContent?.trim() ?? ""));
  const wrong = labels.find((label) => label !== String(Number(a) + Number(b)))!;
  await page.getByLabel("Key").fill(key);
  await question.getByRole("radio", { name: wrong, exact: true }).check();
  await page.getByRole("button", { name: "Redeem Key" }).click();

  await expect(page.getByRole("alert")).toHaveText(
    "That is not the right answer. Please answer the new question and send again.",
  );
  await answerHumanCheckQuestion(form);
  await page.getByRole("button", { name: "Redeem Key" }).click();
  await expectDeliveredKeyOrder(page);
});
