import { type Page, expect, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { deliveredOrder, newCustomer } from "../support/e2e-orders";
import { E2E_OWNER, expectNoOverflow, ownerToken, signInThroughForm } from "../support/e2e-staff";
import { onlyInPairedProject } from "../support/e2e-projects";

/*
 * Issue 26 item 6, what staff see, with JavaScript on and off, on a 390 px phone and a desktop: creation at
 * the top of the catalogue, a create form posted twice making one product, the customer page's balance form
 * and ledger, and the order page's payments on a phone.
 */

const PHONE = { width: 390, height: 844 };
const DESKTOP = { width: 1280, height: 900 };
const VIEWPORTS = [
  { name: "phone", size: PHONE },
  { name: "desktop", size: DESKTOP },
];

async function signInAsOwner(page: Page) {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page).toHaveURL(/\/admin$/);
}

test("a new product is made from the top of the catalogue, and its form posted twice makes one product", async ({
  page,
  request,
}, testInfo) => {
  await signInAsOwner(page);
  for (const viewport of VIEWPORTS) {
    await page.setViewportSize(viewport.size);
    await page.goto("/admin/catalogue");
    const link = page.getByRole("link", { name: "New product", exact: true });
    // On the first screen, above the lists, wherever the catalogue's long list ends.
    const box = await link.boundingBox();
    expect(box, viewport.name).not.toBeNull();
    expect(box!.y + box!.height, viewport.name).toBeLessThanOrEqual(viewport.size.height);
  }

  await page.getByRole("link", { name: "New product", exact: true }).click();
  await expect(page.getByRole("heading", { name: "New product", level: 1 })).toBeVisible();
  const title = `Twice ${testInfo.project.name} ${Date.now().toString(36)}`;
  await page.getByLabel("Title", { exact: true }).fill(title);

  // The browser sends the one post twice (a second click while the first is on its way, a resend).
  let posts = 0;
  await page.route(
    (url) => url.pathname.startsWith("/admin/catalogue/new"),
    async (route) => {
      if (route.request().method() !== "POST") return route.continue();
      posts++;
      await route.fetch({ maxRedirects: 0 });
      await route.fulfill({ response: await route.fetch({ maxRedirects: 0 }) });
    },
  );
  await page.getByRole("button", { name: "Create product" }).click();
  await expect(page.getByRole("heading", { name: title, level: 1 })).toBeVisible();
  expect(posts).toBe(1);
  const listed = await call<{ records: { title: string }[] }>(
    request,
    "GET",
    `/v1/admin/catalogue/products?search=${encodeURIComponent(title)}`,
    undefined,
    await ownerToken(request),
  );
  expect(listed.records.filter((product) => product.title === title)).toHaveLength(1);
});

for (const viewport of VIEWPORTS) {
  test.describe(`at ${viewport.name} width`, () => {
    onlyInPairedProject(viewport.name as "phone" | "desktop");

    test(`the customer page shows the whole balance choice, and emails in the ledger unbroken (${viewport.name})`, async ({
      page,
      request,
    }, testInfo) => {
      await page.setViewportSize(viewport.size);
      const customer = await newCustomer(request, testInfo, "ledger");
      const token = await ownerToken(request);
      const found = await call<{ records: { _id: string }[] }>(
        request,
        "GET",
        `/v1/admin/customers?search=${customer.username}`,
        undefined,
        token,
      );
      await call(
        request,
        "POST",
        `/v1/admin/customers/${found.records[0]._id}/balance`,
        { direction: "credit", amount: 5, reason: "goodwill" },
        token,
      );
      await signInAsOwner(page);
      await page.goto(`/admin/customers/${found.records[0]._id}`);
      await expectNoOverflow(page, "customer page");

      // Each choice of the select fits in it: none is cut ("Credit (add to the bala").
      const select = page.getByLabel("Change", { exact: true });
      const fits = await select.evaluate((element) => {
        const box = element as HTMLSelectElement;
        const style = getComputedStyle(box);
        const context = document.createElement("canvas").getContext("2d")!;
        context.font = `${style.fontWeight} ${style.fontSize} ${style.fontFamily}`;
        const room = box.clientWidth - parseFloat(style.paddingLeft) - parseFloat(style.paddingRight);
        return [...box.options].map((option) => ({
          text: option.text,
          fits: context.measureText(option.text).width <= room - 16,
        }));
      });
      expect(fits.filter((option) => !option.fits)).toEqual([]);

      // The ledger's "By" breaks an email only before its @, never inside a word.
      const by = page.getByTestId("ledger-by").first();
      await expect(by).toHaveText(E2E_OWNER.email);
      const lines = await by.evaluate((cell) =>
        [...cell.querySelectorAll("span")].map((part) => {
          const range = document.createRange();
          range.selectNodeContents(part);
          return new Set([...range.getClientRects()].map((rect) => Math.round(rect.top))).size;
        }),
      );
      expect(lines.length).toBe(2);
      expect(lines.every((count) => count === 1)).toBe(true);
    });
  });
}

test("the order page's payments fit a 390 px phone, without sideways scrolling", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  await page.setViewportSize(PHONE);
  const customer = await newCustomer(request, testInfo, "payments");
  const orderId = await deliveredOrder(page, request, customer);
  await signInAsOwner(page);
  await page.goto(`/admin/orders/${orderId}`);
  const payments = page.getByTestId("admin-payments");
  await expect(payments).toContainText("sandbox");
  const fit = await payments.evaluate((frame) => {
    const edge = frame.getBoundingClientRect();
    const cut = [...frame.querySelectorAll("td")].filter((cell) => {
      const box = cell.getBoundingClientRect();
      return box.width > 0 && (box.left < edge.left - 0.5 || box.right > edge.right + 0.5);
    });
    return { scrolls: frame.scrollWidth > frame.clientWidth, cut: cut.map((cell) => cell.textContent) };
  });
  expect(fit).toEqual({ scrolls: false, cut: [] });
  // Each value is named on the phone, as the table's head names it on a wide screen.
  await expect(page.getByTestId("admin-payment-status")).toHaveAttribute("data-label", "Status");
  await expectNoOverflow(page, "order page");
});
