import { type APIRequestContext, expect, type Page, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { readMailTo } from "../support/e2e-mail";
import { type E2eCustomer, newCustomer, signIn } from "../support/e2e-orders";
import { E2E_OWNER, expectNoOverflow, newStaff, signInThroughForm, backOfficeNav } from "../support/e2e-staff";

/*
 * The staff inbox (issue 17, ADR 029), JS on and off: a ticket answered as 'Admin' that the customer reads,
 * replacement requests completed from stock and rejected (the customer is mailed), a review hidden and
 * answered. Each project works on its own product, so the runs side by side never meet; the products
 * are ones no other spec buys, and their automatic replacement is turned back on at the end.
 */

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
];
/** The demo product each project's replacement and review work on. */
const PRODUCT_OF_PROJECT: Record<string, string> = { js: "Vidnest Plus", "no-js": "ReelHaven Movies" };

type Product = { _id: string; title: string };
type Option = { _id: string; title: string; availableStock: number; subOptions: { duration: number }[] };

/** `quantity` credentials of the product's first option with stock, bought by `customer` and paid on the sandbox page. */
async function buy(page: Page, request: APIRequestContext, customer: E2eCustomer, title: string, quantity: number) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  const product = products.find((candidate) => candidate.title === title)!;
  const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
  const option = options.find((candidate) => candidate.availableStock >= quantity + 1)!;
  await call(
    request,
    "POST",
    "/v1/cart/add",
    { optionId: option._id, duration: option.subOptions[0].duration, quantity },
    customer.token,
  );
  const { orderId, paymentUrl } = await call<{ orderId: string; paymentUrl: string }>(
    request,
    "POST",
    "/v1/order/create",
    { paymentMethod: "sandbox", coupon: "", message: "", isGuest: false },
    customer.token,
  );
  await page.goto(new URL(paymentUrl).pathname);
  await page.getByRole("button", { name: /^Pay / }).click();
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  return { orderId, line: { orderId, productId: product._id, productOptionId: option._id } };
}

/** A replacement request sent through /v1 with a human-check answer old enough to pass. */
async function requestReplacement(
  request: APIRequestContext,
  customer: E2eCustomer,
  line: Record<string, string>,
  index: number,
) {
  const challenge = await call<{ token: string }>(request, "GET", "/v1/human-check/challenge");
  await new Promise((resolve) => setTimeout(resolve, 2_100));
  await call(
    request,
    "POST",
    "/v1/request/createReplacement",
    { ...line, index, message: `Credential ${index + 1} stopped working`, "g-recaptcha-response": challenge.token },
    customer.token,
  );
}

async function setAutomatic(page: Page, title: string, on: boolean) {
  await page.goto("/admin/requests#settings");
  const row = page.getByRole("table", { name: "Replacement settings" }).getByRole("row").filter({ hasText: title });
  const box = row.getByRole("checkbox", { name: "Automatic" });
  if (on) await box.check();
  else await box.uncheck();
  await row.getByRole("button", { name: `Save ${title}` }).click();
  await expect(page.getByText(`${title}: replacement settings saved`).first()).toBeVisible();
}

for (const viewport of VIEWPORTS) {
  test(`support answers a ticket and the customer reads it from Admin (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const customer = await newCustomer(request, testInfo, "tk");
    const subject = `Login code ${testInfo.project.name} ${viewport.name} ${Date.now().toString(36)}`;
    const ticket = await call<{ _id: string }>(
      request,
      "POST",
      "/v1/ticket/create",
      { orderId: "", subject, message: "The account asks for a code" },
      customer.token,
    );
    const support = await newStaff(request, testInfo, "support");
    await signInThroughForm(page, support.username, support.password);
    await (await backOfficeNav(page)).getByRole("link", { name: "Tickets" }).click();
    await expect(page.getByRole("heading", { name: "Tickets", exact: true })).toBeVisible();
    await page.getByRole("link", { name: subject }).click();
    await expect(page.getByRole("heading", { name: subject })).toBeVisible();
    await expectNoOverflow(page, "/admin/tickets/:id");
    await page.getByLabel("Reply as Admin").fill("Use the code from the mail we sent you.");
    await page.getByRole("button", { name: "Send reply" }).click();
    await expect(page.getByText("Reply sent; the customer is mailed").first()).toBeVisible();
    await expect(page.getByRole("list", { name: "Conversation" })).toContainText(support.email);

    await readMailTo(`${customer.username}@example.com`, new RegExp(subject.slice(0, 20)));
    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto(`/tickets/${ticket._id}`);
    const reply = page.getByText("Use the code from the mail we sent you.");
    await expect(reply).toBeVisible();
    await expect(page.getByText("Admin", { exact: true }).first()).toBeVisible();
    await expect(page.getByText(support.email)).toHaveCount(0);
  });
}

test("the owner completes one replacement from stock and rejects another; the customer is mailed both", async ({
  page,
  request,
}, testInfo) => {
  test.setTimeout(60_000);
  const title = PRODUCT_OF_PROJECT[testInfo.project.name];
  await page.setViewportSize(VIEWPORTS[testInfo.project.name === "js" ? 0 : 1]);
  const customer = await newCustomer(request, testInfo, "rq");
  const { orderId, line } = await buy(page, request, customer, title, 2);

  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await setAutomatic(page, title, false);
  try {
    await requestReplacement(request, customer, line, 0);
    await requestReplacement(request, customer, line, 1);

    await page.goto(`/admin/requests?search=${orderId}`);
    await expectNoOverflow(page, "/admin/requests");
    const cards = page.getByRole("list", { name: "Requests" }).getByRole("listitem");
    await expect(cards).toHaveCount(2);
    await cards
      .filter({ hasText: "Credential 1 stopped working" })
      .getByRole("button", { name: /^Replace from stock/ })
      .click();
    await expect(page.getByText("Replacement delivered; the customer is mailed").first()).toBeVisible();

    const second = page.getByRole("listitem").filter({ hasText: "Credential 2 stopped working" });
    await second.getByText("Reject", { exact: true }).first().click();
    await second.getByLabel(/^Why/).fill("This account works: sign in with the code from the provider");
    await second.getByRole("button", { name: "Reject" }).last().click();
    await expect(page.getByText("Request rejected; the customer is mailed").first()).toBeVisible();
    await expect(page.getByRole("list", { name: "Requests" })).toHaveCount(0);

    const email = `${customer.username}@example.com`;
    await readMailTo(email, new RegExp(`Your replacement for .* is ready`));
    await readMailTo(email, new RegExp(`Your replacement request for .* was declined`));
    const history = await call<{ status: string; reason: string | null }[]>(
      request,
      "POST",
      "/v1/request/getRequests",
      line,
      customer.token,
    );
    expect(history.map((entry) => entry.status).sort()).toEqual(["completed", "rejected"]);
  } finally {
    await setAutomatic(page, title, true);
  }
});

test("support hides a review and answers it publicly as Admin", async ({ page, request }, testInfo) => {
  test.setTimeout(60_000);
  const title = PRODUCT_OF_PROJECT[testInfo.project.name];
  const customer = await newCustomer(request, testInfo, "fb");
  const { line } = await buy(page, request, customer, title, 1);
  const words = `Quick delivery ${testInfo.project.name} ${Date.now().toString(36)}`;
  await call(request, "POST", "/v1/feedback/create", { ...line, stars: 4, message: words }, customer.token);
  const publicPage = `/feedback?product=${line.productId}`;
  await page.goto(publicPage);
  await expect(page.getByText(words)).toBeVisible();

  const support = await newStaff(request, testInfo, "support");
  await signInThroughForm(page, support.username, support.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  const moderation = `/admin/feedback?search=${encodeURIComponent(words)}`;
  await page.goto(moderation);
  const review = page.getByRole("list", { name: "Reviews" }).getByRole("listitem").filter({ hasText: words });
  await review.getByRole("button", { name: /^Hide the review/ }).click();
  await expect(page.getByText("Review hidden").first()).toBeVisible();
  await page.goto(publicPage);
  await expect(page.getByText(words)).toHaveCount(0);

  await page.goto(`/admin/feedback?filter=hidden&search=${encodeURIComponent(words)}`);
  await page.getByRole("button", { name: /^Show the review/ }).click();
  await expect(page.getByText("Review shown").first()).toBeVisible();
  await page.goto(moderation);
  await page.getByText("Reply publicly").click();
  await page.getByLabel(/^Reply shown under the review/).fill("Thank you! See you next month.");
  await page.getByRole("button", { name: "Save reply" }).click();
  await expect(page.getByText("Reply published").first()).toBeVisible();

  await page.goto(publicPage);
  const card = page.getByTestId("feedback-card").filter({ hasText: words });
  await expect(card.getByTestId("feedback-reply")).toContainText("Admin");
  await expect(card.getByTestId("feedback-reply")).toContainText("Thank you! See you next month.");
});

test("a manager and a customer are refused the inbox, in pages and in the API", async ({ page, request }, testInfo) => {
  const manager = await newStaff(request, testInfo, "manager");
  await signInThroughForm(page, manager.username, manager.password);
  await expect(page.getByRole("heading", { name: "Overview" })).toBeVisible();
  await expect((await backOfficeNav(page)).getByRole("link", { name: "Tickets" })).toHaveCount(0);
  for (const path of ["/admin/tickets", "/admin/requests", "/admin/feedback"]) {
    expect((await page.goto(path))?.status(), path).toBe(404);
  }
  const api = await request.get("/v1/admin/requests", { headers: { authorization: `Bearer ${manager.token}` } });
  expect(api.status()).toBe(403);
  const customer = await newCustomer(request, testInfo, "nq");
  const refused = await request.get("/v1/admin/tickets", { headers: { authorization: `Bearer ${customer.token}` } });
  expect(refused.status()).toBe(403);
});
