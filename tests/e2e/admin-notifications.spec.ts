import { mkdirSync, rmSync, statSync } from "node:fs";
import path from "node:path";
import { expect, type Page, test } from "@playwright/test";
import { e2eDataDir } from "../../playwright.config";
import { readMailTo } from "../support/e2e-mail";
import { deliveredOrder, newCustomer } from "../support/e2e-orders";
import { E2E_OPERATOR_EMAIL } from "../support/e2e-owner";
import { E2E_OWNER, expectNoOverflow, signInThroughForm, backOfficeNav } from "../support/e2e-staff";

/*
 * The operator's notifications (issue 17, ADR 030), JS on and off, at a phone width and on a desktop: the
 * owner chooses which events go where, and a paid order puts the operator's mail in the outbox (the e2e
 * server sets OPERATOR_EMAIL; it has no webhook).
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
];

/**
 * The box each run unticks and ticks again: its own, so the projects and widths running side by side never
 * undo one another's change (and none is the paid order's mail, which the last test waits for).
 */
const BOX_OF_RUN: Record<string, string> = {
  "js phone": "Mail: A customer replied on a ticket",
  "js desktop": "Webhook: A customer replied on a ticket",
  "no-js phone": "Mail: An option sold out",
  "no-js desktop": "Webhook: An option sold out",
};

/**
 * The routing is one setting of the whole store, and its form saves every box: a run that loaded the page before
 * another run saved would put that run's box back. The runs, in parallel workers, take turns (a directory made
 * atomically is the turn; one older than a minute was left by a stopped worker).
 */
async function inTurn(work: () => Promise<void>) {
  const turn = path.join(e2eDataDir, "notification-routing.turn");
  for (;;) {
    try {
      mkdirSync(turn);
      break;
    } catch {
      const age = Date.now() - (statSync(turn, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 60_000) rmSync(turn, { recursive: true, force: true });
      await new Promise((resolve) => setTimeout(resolve, 200));
    }
  }
  try {
    await work();
  } finally {
    rmSync(turn, { recursive: true, force: true });
  }
}

async function saveSettings(page: Page) {
  await page.getByRole("button", { name: "Save notification settings" }).click();
  await expect(page.getByText("Notification settings saved").first()).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`an owner chooses which events go where and sees it saved (${viewport.name})`, async ({ page }, testInfo) => {
    // Up to three other runs may take their turn first.
    test.setTimeout(120_000);
    await page.setViewportSize(viewport);
    const boxName = BOX_OF_RUN[`${testInfo.project.name} ${viewport.name}`];
    await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
    await (await backOfficeNav(page)).getByRole("link", { name: "Notifications" }).click();
    await expect(page).toHaveURL(/\/admin\/notifications$/);
    await expect(page.getByRole("heading", { name: "Notifications", exact: true })).toBeVisible();
    const channels = page.getByRole("region", { name: "Channels" });
    await expect(channels).toContainText(`On: mailed to ${E2E_OPERATOR_EMAIL}.`);
    await expect(channels).toContainText("Off: set NOTIFY_WEBHOOK_URL and NOTIFY_WEBHOOK_SECRET");
    await expect(page.getByText("No notification was sent to the webhook yet.")).toBeVisible();
    await expectNoOverflow(page, "/admin/notifications");

    await inTurn(async () => {
      await page.reload();
      const box = page.getByRole("checkbox", { name: boxName, exact: true });
      await expect(box).toBeChecked();
      await box.uncheck();
      await saveSettings(page);
      await page.reload();
      await expect(page.getByRole("checkbox", { name: boxName, exact: true })).not.toBeChecked();
      await expect(page.getByRole("checkbox", { name: "Mail: An order was paid", exact: true })).toBeChecked();

      await page.goto("/admin/audit?action=notifications.routing");
      await expect(page.getByRole("row").filter({ hasText: E2E_OWNER.email }).first()).toContainText(
        "notifications.routing",
      );

      await page.goto("/admin/notifications");
      await page.getByRole("checkbox", { name: boxName, exact: true }).check();
      await saveSettings(page);
      await expect(page.getByRole("checkbox", { name: boxName, exact: true })).toBeChecked();
    });
    await expectNoOverflow(page, "/admin/notifications after saving");
  });
}

test("a paid order puts the operator's notification in the mail outbox", async ({ page, request }, testInfo) => {
  await page.setViewportSize(VIEWPORTS[0]);
  const customer = await newCustomer(request, testInfo, "notify");
  const orderId = await deliveredOrder(page, request, customer);
  const mail = await readMailTo(E2E_OPERATOR_EMAIL, new RegExp(`Order paid: [0-9.]+ USD \\(${orderId.slice(0, 8)}\\)`));
  expect(mail).toContain(`Order: ${orderId}`);
  expect(mail).toContain("Paid with: sandbox");
  expect(mail).not.toContain(customer.username);
});
