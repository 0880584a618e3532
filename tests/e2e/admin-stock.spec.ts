import { readFile } from "node:fs/promises";
import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import {
  E2E_OWNER,
  expectNoOverflow,
  newAccount,
  newStaff,
  signInThroughForm,
  backOfficeNav,
} from "../support/e2e-staff";

/*
 * The back office's stock and redeem keys (issue 16, ADR 025), JS on and off, at a phone width and on a
 * desktop, signed in as the owner `npm run admin:create` made: import pasted lines with a duplicate and a bad
 * one and see the counts and the shop's stock; export the unsold ones; generate a key, redeem it, revoke one.
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
] as const;

/** The builtin human check accepts a token 2 s after it was issued; a person is never that quick. */
const HUMAN_CHECK_MIN_AGE_MS = 2_100;

type Envelope<T> = { payload: T };
type Product = { _id: string; title: string; fullFillmode: string };
type Option = { _id: string; title: string; availableStock: number; subOptions: { duration: number }[] };

/**
 * The last option of an automatically delivered product near the end of the catalogue (`fromEnd` 0 is the
 * last): the other specs buy from the first plans with stock, so its count moves only here. Each test that
 * counts, or sells, takes its own product: the tests run side by side, and a key redeemed by one would
 * move the count another checks.
 */
async function quietPlan(request: APIRequestContext, fromEnd = 0) {
  const products = ((await (await request.get("/v1/product/read")).json()) as Envelope<Product[]>).payload;
  const product = products.filter((candidate) => candidate.fullFillmode !== "manual").at(-1 - fromEnd)!;
  const options = ((await (await request.get(`/v1/product/option/read/${product._id}`)).json()) as Envelope<Option[]>)
    .payload;
  return { product, option: options.at(-1)! };
}

/** Which product from the end each run of the import test counts on (3 is left out: a roomy plan other specs buy). */
const IMPORT_SLOTS: Record<string, Record<string, number>> = {
  js: { phone: 0, desktop: 1 },
  "no-js": { phone: 2, desktop: 4 },
};
const UPLOAD_SLOT = 5;
const KEYS_SLOT = 6;

function unique(testInfo: TestInfo, viewport: string) {
  return `${testInfo.project.name.replace("-", "")}${viewport}${Date.now().toString(36)}`;
}

async function openOptionStock(page: Page, plan: Awaited<ReturnType<typeof quietPlan>>) {
  await page.goto("/admin");
  await (await backOfficeNav(page)).getByRole("link", { name: "Stock" }).click();
  await expect(page.getByRole("heading", { name: "Stock", exact: true })).toBeVisible();
  await page.getByLabel("Product or option").fill(plan.product.title);
  await page.getByRole("button", { name: "Search" }).click();
  await page.getByRole("link", { name: `Stock of ${plan.product.title} — ${plan.option.title}` }).click();
  await expect(page.getByRole("heading", { name: `${plan.product.title} — ${plan.option.title}` })).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`an owner imports pasted stock, sees the counts and the shop's stock, and exports it (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const plan = await quietPlan(request, IMPORT_SLOTS[testInfo.project.name][viewport.name]);
    const tag = unique(testInfo, viewport.name);
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    await expect(page).toHaveURL(/\/admin$/);
    await openOptionStock(page, plan);
    await expectNoOverflow(page, "option stock");
    const freeBefore = Number(await page.getByTestId("stock-counts").locator("dd").first().textContent());

    const lines = [`first.${tag}@mail.example:pw:1`, `second.${tag}@mail.example:pw2`];
    await page
      .getByRole("textbox", { name: "Credentials", exact: true })
      .fill([lines[0], "", lines[1], `FIRST.${tag.toUpperCase()}@MAIL.EXAMPLE:pw:1`, "no colon here"].join("\n"));
    await page.getByLabel("Batch label (optional)").fill(`e2e ${tag}`);
    await page.getByRole("button", { name: "Import", exact: true }).click();

    const report = page.getByTestId("import-report");
    await expect(report.getByRole("heading")).toHaveText(`Imported 2 credentials into batch “e2e ${tag}”`);
    await expect(report.getByTestId("import-added")).toHaveText("Added 2 (2 seats)");
    await expect(report.getByTestId("import-duplicates")).toHaveText("Duplicate 1 (line 4)");
    await expect(report.getByTestId("import-invalid")).toContainText("Invalid 1");
    await expect(report.getByTestId("import-invalid")).toContainText("line 5: no ':' between username and password");
    await expect(page.getByTestId("stock-counts").locator("dd").first()).toHaveText(String(freeBefore + 2));
    const row = page.getByRole("row").filter({ hasText: `first.${tag}@mail.example` });
    await expect(row).toContainText("available");
    await expect(row).toContainText(`e2e ${tag}`);
    // The list never shows a password.
    await expect(page.getByText("pw:1")).toHaveCount(0);
    await expectNoOverflow(page, "import result");
    // The form starts empty again, so the same lines are not imported twice by mistake (issue 26).
    await expect(page.getByRole("textbox", { name: "Credentials", exact: true })).toHaveValue("");
    await expect(page.getByLabel("Batch label (optional)")).toHaveValue("");

    // Searching by a whole username (any letter case: it is found by its keyed hash, ADR 056) narrows the list to it.
    await page.getByLabel("Exact username").fill(`second.${tag}@mail.example`.toUpperCase());
    await page.getByRole("button", { name: "Filter" }).click();
    await expect(page.getByRole("row")).toHaveCount(2);

    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Export unsold (.txt)" }).click();
    const file = await download;
    expect(file.suggestedFilename()).toMatch(/^stock-.*\.txt$/);
    const exported = await readFile((await file.path())!, "utf8");
    for (const line of lines) expect(exported.split("\n")).toContain(line);

    await page.goto(`/shop/${plan.product._id}?option=${plan.option._id}`);
    await expect(page.getByText(`${freeBefore + 2} available`).first()).toBeVisible();

    await page.goto(`/admin/audit?action=stock&object=${plan.option._id}`);
    await expect(page.getByRole("row").filter({ hasText: "stock.import" }).first()).toContainText(`e2e ${tag}`);
    await expect(page.getByRole("row").filter({ hasText: "stock.export" }).first()).toBeVisible();
    await expect(page.getByText(lines[0])).toHaveCount(0);
  });

  test(`an owner generates a key that redeems on /redeem-key, downloads a CSV batch and revokes a key (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const plan = await quietPlan(request, KEYS_SLOT);
    const planValue = `${plan.option._id}:${plan.option.subOptions[0].duration}`;
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    await expect(page).toHaveURL(/\/admin$/);
    await (await backOfficeNav(page)).getByRole("link", { name: "Redeem keys" }).click();
    await expect(page.getByRole("heading", { name: "Redeem keys", exact: true })).toBeVisible();

    await page.getByLabel("Plan and warranty").selectOption(planValue);
    await page.getByLabel(/Number of keys/).fill("1");
    await page.getByRole("button", { name: "Generate", exact: true }).click();
    const codes = page.getByLabel("Generated codes");
    await expect(codes).toBeVisible();
    const code = (await codes.inputValue()).trim();
    expect(code).toMatch(/^([0-9A-Z]{5}-){3}[0-9A-Z]{5}$/);
    await expectNoOverflow(page, "generated keys");

    // A CSV of a second batch, straight from the form.
    await page.getByLabel("Plan and warranty").selectOption(planValue);
    await page.getByLabel(/Number of keys/).fill("2");
    const download = page.waitForEvent("download");
    await page.getByRole("button", { name: "Generate and download CSV" }).click();
    const csv = await readFile((await (await download).path())!, "utf8");
    const csvLines = csv.trim().split("\r\n");
    expect(csvLines[0]).toBe("code,product,option,warranty_days,quantity,expires_at");
    expect(csvLines).toHaveLength(3);
    const csvCode = csvLines[1].split(",")[0].replace(/"/g, "");

    // Redeem the first key as a new customer.
    const email = `keyed_${unique(testInfo, viewport.name)}@example.com`;
    await page.goto("/redeem-key");
    const renderedAt = Date.now();
    await page.getByLabel("Email Address").fill(email);
    await page.getByLabel("Key").fill(code);
    const wait = HUMAN_CHECK_MIN_AGE_MS - (Date.now() - renderedAt);
    if (wait > 0) await page.waitForTimeout(wait);
    await page.getByRole("button", { name: "Redeem Key" }).click();
    await expect(page).toHaveURL(/\/find-order\?id=[A-Za-z0-9_-]{22}$/);
    await expect(page.getByRole("status").filter({ hasText: "Your key is redeemed" })).toBeVisible();

    // The list shows who used it, linking to the order; the back office never shows the whole code again.
    await page.goto(`/admin/keys?hint=${code.slice(-4)}`);
    const used = page.getByRole("row").filter({ hasText: `…-${code.slice(-4)}` });
    await expect(used).toContainText("used by");
    await expect(used.getByRole("link", { name: email })).toHaveAttribute("href", /\/find-order\?id=/);
    await expect(page.getByText(code)).toHaveCount(0);

    // Revoke one key of the CSV batch.
    await page.goto(`/admin/keys?hint=${csvCode.slice(-4)}&state=unused`);
    await page
      .getByRole("checkbox", { name: `Choose the key ending ${csvCode.slice(-4)}` })
      .first()
      .check();
    await page.getByRole("button", { name: "Revoke the chosen keys" }).click();
    await expect(page.getByText("Revoked 1 key").first()).toBeVisible();
    await page.goto(`/admin/keys?hint=${csvCode.slice(-4)}&state=revoked`);
    await expect(
      page
        .getByRole("row")
        .filter({ hasText: `…-${csvCode.slice(-4)}` })
        .first(),
    ).toContainText("revoked");
    await expectNoOverflow(page, "key list");
  });
}

test("an owner uploads a .txt file, removes a chosen credential and then the rest of its batch (phone)", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const plan = await quietPlan(request, UPLOAD_SLOT);
  const tag = unique(testInfo, "upload");
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page).toHaveURL(/\/admin$/);
  await openOptionStock(page, plan);
  const [kept, dropped] = [`kept.${tag}@mail.example`, `dropped.${tag}@mail.example`];
  await page.getByLabel("Or a .txt file (up to 5 MB)").setInputFiles({
    name: "stock.txt",
    mimeType: "text/plain",
    buffer: Buffer.from(`\uFEFF${kept}:one\r\n${dropped}:two  \r\n\r\n:\r\n`),
  });
  await page.getByLabel("Batch label (optional)").fill(`upload ${tag}`);
  await page.getByRole("button", { name: "Import", exact: true }).click();
  await expect(page.getByTestId("import-added")).toHaveText("Added 2 (2 seats)");
  await expect(page.getByTestId("import-invalid")).toHaveText("Invalid 0");

  await page.getByRole("checkbox", { name: `Choose ${dropped}` }).check();
  await page.getByRole("button", { name: "Remove unsold seats of the chosen" }).click();
  await expect(page.getByText("Removed 1 credential (1 unsold seat)").first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: dropped })).toHaveCount(0);
  await expect(page.getByRole("row").filter({ hasText: kept })).toHaveCount(1);

  await page.getByText("Remove a whole batch").click();
  await page.getByLabel("Batch", { exact: true }).last().selectOption(`upload ${tag}`);
  await page.getByRole("checkbox", { name: /Take this batch/ }).check();
  await page.getByRole("button", { name: "Remove batch" }).click();
  await expect(page.getByText("Removed 1 credential (1 unsold seat)").first()).toBeVisible();
  await expect(page.getByRole("row").filter({ hasText: kept })).toHaveCount(0);
  await expectNoOverflow(page, "after removals");
});

test("support gets the not-found page for stock and keys, a customer what any unknown address gives (the dashboard), and both 403 from the API", async ({
  page,
  request,
}, testInfo) => {
  const plan = await quietPlan(request);
  const support = await newStaff(request, testInfo, "support");
  const customer = await newAccount(request, testInfo, "stockshopper");
  for (const account of [support, customer]) {
    await page.context().clearCookies();
    await signInThroughForm(page, account.username, account.password, "/");
    await expect(page.getByRole("button", { name: "Log out" })).toBeAttached();
    for (const path of ["/admin/stock", `/admin/stock/${plan.option._id}`, "/admin/keys"]) {
      const response = await page.goto(path);
      if (account === support) {
        expect(response?.status(), `${account.username} ${path}`).toBe(404);
      } else {
        // To a customer the back office is an unknown address, which sends them to their dashboard (ADR 041).
        await expect(page, `${account.username} ${path}`).toHaveURL(/\/dashboard$/);
      }
    }
    const refused = await request.post(`/v1/admin/stock/${plan.option._id}/import`, {
      data: { text: "x@x.example:y" },
      headers: { authorization: `Bearer ${account.token}` },
    });
    expect(refused.status()).toBe(403);
  }
});
