import { expect, test } from "@playwright/test";
import { E2E_OWNER, expectNoOverflow, newStaff, signInThroughForm, backOfficeNav } from "../support/e2e-staff";

/*
 * The store's content and payment gateways in the back office (issue 16, ADR 031), JS on and off, at a
 * phone width and on a desktop. Each run adds its own FAQ question, so runs side by side never meet; the
 * announcement, social links, documents and gateway switches are shared by every spec of the suite, so
 * their changes are proven by tests/api/admin-content.test.ts instead of here.
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
];

for (const viewport of VIEWPORTS) {
  test(`an owner adds, edits, moves and deletes a FAQ question and the FAQ page follows (${viewport.name})`, async ({
    page,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const tag = `${testInfo.project.name} ${viewport.name} ${Date.now().toString(36)}`;
    const question = `Do you deliver at night? (${tag})`;
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    const nav = await backOfficeNav(page);
    await nav.getByRole("link", { name: "Content" }).click();
    await expect(page).toHaveURL(/\/admin\/content$/);
    await expect(page.getByRole("heading", { name: "Content", exact: true })).toBeVisible();
    await expectNoOverflow(page, "/admin/content");

    const faq = page.getByRole("region", { name: "FAQ" });
    await faq.getByText("Add a question").click();
    const addForm = faq.locator("form#faq-add");
    await addForm.getByLabel("Question").fill(question);
    await addForm.getByLabel("Answer").fill(`Yes, every hour of the day (${tag}).`);
    await addForm.getByRole("button", { name: "Add question" }).click();
    await expect(page.getByText("Question added").first()).toBeVisible();

    await page.goto("/faqs");
    const summary = page.locator("summary", { hasText: question });
    await expect(summary).toBeVisible();
    await summary.click();
    await expect(page.getByText(`Yes, every hour of the day (${tag}).`)).toBeVisible();

    await page.goto("/admin/content");
    const row = page.getByRole("listitem").filter({ hasText: question });
    await row.getByText("Edit", { exact: true }).click();
    await row.getByLabel("Answer").fill(`Yes, day and night, within minutes (${tag}).`);
    await row.getByRole("button", { name: "Save", exact: true }).click();
    await expect(page.getByText("Question saved").first()).toBeVisible();

    await page
      .getByRole("listitem")
      .filter({ hasText: question })
      .getByRole("button", { name: `Move up: ${question}` })
      .click();
    await expect(page.getByText(`${question} moved up`).first()).toBeVisible();

    await page.goto("/faqs");
    await page.locator("summary", { hasText: question }).click();
    await expect(page.getByText(`Yes, day and night, within minutes (${tag}).`)).toBeVisible();

    await page.goto("/admin/content");
    await page
      .getByRole("listitem")
      .filter({ hasText: question })
      .getByRole("button", { name: `Delete: ${question}` })
      .click();
    await expect(page.getByText(`Question deleted: ${question}`).first()).toBeVisible();
    await page.goto("/faqs");
    await expect(page.locator("summary", { hasText: question })).toHaveCount(0);

    await page.goto(`/admin/audit?objectType=faq`);
    for (const action of ["faq.create", "faq.edit", "faq.move", "faq.delete"]) {
      await expect(page.getByRole("row").filter({ hasText: action }).filter({ hasText: tag }).first()).toBeVisible();
    }
  });
}

test("an empty answer is refused with a message and nothing is added", async ({ page }, testInfo) => {
  const question = `Empty answer ${testInfo.project.name} ${Date.now().toString(36)}`;
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password, "/admin/content");
  const faq = page.getByRole("region", { name: "FAQ" });
  await faq.getByText("Add a question").click();
  const addForm = faq.locator("form#faq-add");
  await addForm.getByLabel("Question").fill(question);
  // The browser's own check would stop an empty box before the server sees it; spaces pass it.
  await addForm.getByLabel("Answer").fill("   ");
  await addForm.getByRole("button", { name: "Add question" }).click();
  await expect(addForm.getByText("Please enter the answer")).toBeVisible();
  await expect(page.getByRole("listitem").filter({ hasText: question })).toHaveCount(0);
});

test("the owner sees each gateway with its keys and whether checkout offers it", async ({ page }) => {
  await page.setViewportSize(VIEWPORTS[0]);
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await (await backOfficeNav(page)).getByRole("link", { name: "Payment gateways" }).click();
  await expect(page.getByRole("heading", { name: "Payment gateways" })).toBeVisible();
  const table = page.getByRole("table", { name: "Payment gateways" });
  await expect(table.getByRole("row").filter({ hasText: "Sandbox (test payments)" })).toContainText("Offered");
  const card = table.getByRole("row").filter({ hasText: "Credit/Debit Card" });
  await expect(card).toContainText("not configured");
  await expect(card).toContainText("Not offered");
  await expect(table.getByRole("row").filter({ hasText: "Balance" })).toContainText("none needed");
  await expectNoOverflow(page, "/admin/gateways");
});

test("a manager edits content but not gateways; support reaches neither, in pages and in the API", async ({
  page,
  request,
}, testInfo) => {
  const manager = await newStaff(request, testInfo, "manager");
  await signInThroughForm(page, manager.username, manager.password);
  const nav = await backOfficeNav(page);
  await expect(nav.getByRole("link", { name: "Content" })).toBeVisible();
  await expect(nav.getByRole("link", { name: "Payment gateways" })).toHaveCount(0);
  expect((await page.goto("/admin/content"))?.status()).toBe(200);
  expect((await page.goto("/admin/gateways"))?.status()).toBe(404);
  const managerApi = await request.put("/v1/admin/gateways/sandbox", {
    data: { enabled: false },
    headers: { authorization: `Bearer ${manager.token}` },
  });
  expect(managerApi.status()).toBe(403);

  await page.context().clearCookies();
  const support = await newStaff(request, testInfo, "support");
  await signInThroughForm(page, support.username, support.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect((await backOfficeNav(page)).getByRole("link", { name: "Content" })).toHaveCount(0);
  expect((await page.goto("/admin/content"))?.status()).toBe(404);
  const supportApi = await request.post("/v1/admin/faqs", {
    data: { question: "Q?", answer: "A." },
    headers: { authorization: `Bearer ${support.token}` },
  });
  expect(supportApi.status()).toBe(403);
});
