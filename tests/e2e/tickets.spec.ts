import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { ownerToken } from "../support/e2e-staff";

/*
 * Journey 11: open a ticket from an order's Contact Support link, exchange messages with staff
 * ('Admin', answered through the back office's /v1/admin API with a staff token), close and reopen it;
 * search and page the list. JS on and off.
 */

type Envelope<T> = { success: boolean; message: string; payload: T };
type Option = { _id: string; availableStock: number; subOptions: { duration: number; price: number }[] };

async function call<T>(request: APIRequestContext, path: string, body?: unknown, token?: string, method = "POST") {
  const response = await request.fetch(path, {
    method,
    data: body,
    headers: token ? { authorization: `Bearer ${token}` } : undefined,
  });
  const json = (await response.json()) as Envelope<T>;
  expect(response.ok(), `${path}: ${json.message}`).toBe(true);
  return json.payload;
}

let counter = 0;
/** A fresh customer, signed in in this browser through the sign-in form. */
async function signedInCustomer(request: APIRequestContext, page: Page, testInfo: TestInfo) {
  counter++;
  const username = `tk_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return { token, username };
}

/** A paid order of the customer's, bought through the sandbox gateway. */
async function paidOrder(request: APIRequestContext, token: string) {
  const products = await call<{ _id: string; fullFillmode: string; minQuantity: number }[]>(
    request,
    "/v1/product/read",
    undefined,
    undefined,
    "GET",
  );
  for (const product of products.filter(
    (candidate) => candidate.fullFillmode === "auto" && candidate.minQuantity === 1,
  )) {
    const options = await call<Option[]>(
      request,
      `/v1/product/option/read/${product._id}`,
      undefined,
      undefined,
      "GET",
    );
    const option = options.find((candidate) => candidate.availableStock >= 1 && candidate.subOptions.length > 0);
    if (!option) continue;
    await call(
      request,
      "/v1/cart/add",
      { optionId: option._id, duration: option.subOptions[0].duration, quantity: 1 },
      token,
    );
    const created = await call<{ orderId: string; paymentUrl: string }>(
      request,
      "/v1/order/create",
      { paymentMethod: "sandbox", coupon: "", message: "", isGuest: false },
      token,
    );
    const paymentId = new URL(created.paymentUrl).pathname.split("/").at(-1);
    await call(request, `/v1/sandbox/payments/${paymentId}/pay`, {});
    return created.orderId;
  }
  throw new Error("the demo catalogue has no automatic plan with stock");
}

/** The page's own content (not the shared header) fits a phone without sideways scrolling. */
async function expectNoSidewaysScroll(page: Page) {
  const wide = await page.evaluate(() =>
    [...document.querySelectorAll("main *")]
      .filter((element) => element.getBoundingClientRect().right > window.innerWidth + 1)
      .map((element) => `${element.tagName}.${element.className}`.slice(0, 80)),
  );
  expect(wide).toEqual([]);
}

test("a ticket from an order's Contact Support link: converse with Admin, close, reopen, write again", async ({
  page,
  request,
  javaScriptEnabled,
}, testInfo) => {
  test.setTimeout(60_000);
  const customer = await signedInCustomer(request, page, testInfo);
  const orderId = await paidOrder(request, customer.token);

  await page.goto(`/find-order?id=${orderId}`);
  await page.getByRole("link", { name: "Contact Support" }).first().click();
  await expect(page).toHaveURL(new RegExp(`/tickets\\?orderId=${orderId}$`));
  await expect(page.getByRole("heading", { level: 1, name: "Support Tickets" })).toBeVisible();
  await expect(page.getByText("Our support team replies within 24 hours.").first()).toBeVisible();
  await expect(page.getByLabel("Order")).toHaveValue(orderId);

  // Required fields: the browser (or, once hydrated, conform) refuses an empty form.
  await page.getByRole("button", { name: "Open Ticket" }).click();
  await expect(page).toHaveURL(/\/tickets\?orderId=/);

  const script = `<script>window.hacked = 1</script><b>not bold</b>`;
  await page.getByLabel("Subject").fill("My streaming account asks for a code");
  await page.getByLabel("Message").fill(`It stopped working. ${script}`);
  await page.getByRole("button", { name: "Open Ticket" }).click();

  await expect(page).toHaveURL(/\/tickets\/[A-Za-z0-9_-]{22}$/);
  const ticketId = new URL(page.url()).pathname.split("/").at(-1)!;
  const dialog = page.getByRole("dialog", { name: "My streaming account asks for a code" });
  await expect(dialog).toBeVisible();
  await expect(page.getByRole("status").filter({ hasText: "Support replies within 24 hours" })).toBeVisible();
  const messages = dialog.getByRole("list", { name: "Messages" }).getByRole("listitem");
  await expect(messages).toHaveCount(1);
  // Markup in a message is text: shown as typed, never run or rendered.
  await expect(messages.first()).toContainText(`It stopped working. ${script}`);
  await expect(messages.first()).toContainText(customer.username);
  expect(await dialog.locator("b").count()).toBe(0);
  expect(await page.evaluate(() => (window as { hacked?: number }).hacked)).toBeUndefined();

  // Staff answer from the back office (its API, signed in as staff).
  const staff = await ownerToken(request);
  await call(request, `/v1/admin/tickets/${ticketId}/reply`, { message: "Please try signing in again now." }, staff);
  if (!javaScriptEnabled) await page.reload();
  // With JavaScript the open conversation polls; without it a reload shows the reply.
  await expect(messages).toHaveCount(2, { timeout: 15_000 });
  await expect(messages.nth(1)).toContainText("Admin");
  await expect(messages.nth(1)).toContainText("Please try signing in again now.");

  await dialog.getByLabel("Your message").fill("It works again, thank you!");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(messages).toHaveCount(3);
  await expect(messages.nth(2)).toContainText("It works again, thank you!");
  await expect(dialog.getByLabel("Your message")).toHaveValue("");

  await dialog.getByRole("button", { name: "Close Ticket" }).click();
  await expect(dialog.getByText("This ticket is closed. Reopen it to write again.")).toBeVisible();
  await expect(dialog.getByLabel("Your message")).toHaveCount(0);
  await expect(dialog.getByRole("button", { name: "Send Message" })).toHaveCount(0);

  await dialog.getByRole("button", { name: "Reopen Ticket" }).click();
  await dialog.getByLabel("Your message").fill("It stopped again.");
  await dialog.getByRole("button", { name: "Send Message" }).click();
  await expect(messages).toHaveCount(4);
  await expect(messages.nth(3)).toContainText("It stopped again.");

  // The list shows it as open; closing the dialog leads back to it.
  await dialog.getByRole("link", { name: "Close conversation" }).click();
  await expect(page).toHaveURL(/\/tickets$/);
  await expect(page.getByRole("dialog")).toHaveCount(0);
  const row = page.getByRole("link", { name: /My streaming account asks for a code/ });
  await expect(row).toContainText("Open");

  await page.setViewportSize({ width: 390, height: 844 });
  await expectNoSidewaysScroll(page);
  await row.click();
  await expect(page.getByRole("dialog")).toBeVisible();
  await expectNoSidewaysScroll(page);
});

test("the list searches subjects, pages by 10 and cuts subjects to 40 characters", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  const customer = await signedInCustomer(request, page, testInfo);
  const long = "A very long subject that goes on well past forty characters";
  for (let index = 1; index <= 11; index++) {
    const subject = index === 1 ? long : index === 2 ? "Needle in the haystack" : `Question number ${index}`;
    const ticket = await call<{ _id: string }>(
      request,
      "/v1/ticket/create",
      { subject, message: "Hello" },
      customer.token,
    );
    // At most 5 tickets may be open at once.
    await call(request, "/v1/ticket/close", { ticketId: ticket._id }, customer.token);
  }

  await page.goto("/tickets");
  const rows = page
    .getByRole("list")
    .filter({ has: page.locator('a[href^="/tickets/"]') })
    .getByRole("listitem");
  await expect(rows).toHaveCount(10);
  await expect(rows.first()).toContainText("Question number 11");
  await expect(rows.first()).toContainText("Closed");
  await expect(page.getByText("Page 1 of 2")).toBeVisible();

  await page.getByRole("link", { name: "Next" }).click();
  await expect(page).toHaveURL(/page=2/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText(`${long.slice(0, 40)}…`);
  await expect(rows.first()).not.toContainText(long);

  await page.getByLabel("Search tickets").fill("needle");
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(/q=needle/);
  await expect(rows).toHaveCount(1);
  await expect(rows.first()).toContainText("Needle in the haystack");
});

test("/support leads a customer to /tickets and a guest to the contact form; /tickets needs a sign-in", async ({
  page,
  request,
}, testInfo) => {
  await page.goto("/tickets");
  await expect(page).toHaveURL(/\/login\?redirectTo=%2Ftickets$/);
  await page.goto("/support");
  await expect(page).toHaveURL(/\/contact$/);
  await signedInCustomer(request, page, testInfo);
  await page.goto("/support");
  await expect(page).toHaveURL(/\/tickets$/);
  const missing = await page.goto("/tickets/AAAAAAAAAAAAAAAAAAAAAA");
  expect(missing?.status()).toBe(404);
  await expect(page.getByRole("dialog", { name: "Ticket not found" })).toBeVisible();
});
