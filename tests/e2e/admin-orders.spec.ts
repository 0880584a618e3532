import { type APIRequestContext, type Page, type TestInfo, expect, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { readMailTo } from "../support/e2e-mail";
import { type E2eCustomer, deliveredOrder, newCustomer, signIn } from "../support/e2e-orders";
import { E2E_OWNER, expectNoOverflow, newStaff, signInThroughForm, backOfficeNav } from "../support/e2e-staff";
import { sendSandboxPaidWebhook } from "../support/e2e-webhooks";

/*
 * The back office's orders (issue 17, ADR 028) as the owner, JS on and off, at a phone width and on a
 * desktop: deliver a manual order, confirm a payment by hand (a webhook replayed afterwards changes
 * nothing), refund a line to the balance.
 */

type Product = { _id: string; title: string; fullFillmode: "auto" | "manual"; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { duration: number; price: number }[] };

const VIEWPORTS = [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 900 },
];

/** A plan of the demo catalogue: a manual one, or the automatic one with the most stock. */
async function demoPlan(request: APIRequestContext, fulfilMode: "auto" | "manual") {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  let best: { product: Product; option: Option } | undefined;
  for (const product of products.filter((item) => item.fullFillmode === fulfilMode && item.minQuantity === 1)) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    for (const option of options.filter((candidate) => candidate.subOptions.length > 0)) {
      if (fulfilMode === "manual") return { product, option };
      if (!best || option.availableStock > best.option.availableStock) best = { product, option };
    }
  }
  if (!best) throw new Error(`the demo catalogue has no ${fulfilMode} plan`);
  return best;
}

/** An order placed through /v1 with the sandbox gateway and left unpaid; the payment id is in its URL. */
async function unpaidOrder(request: APIRequestContext, customer: E2eCustomer, fulfilMode: "auto" | "manual") {
  const { product, option } = await demoPlan(request, fulfilMode);
  await call(
    request,
    "POST",
    "/v1/cart/add",
    { optionId: option._id, duration: option.subOptions[0].duration, quantity: 1 },
    customer.token,
  );
  const created = await call<{ orderId: string; paymentUrl: string }>(
    request,
    "POST",
    "/v1/order/create",
    { paymentMethod: "sandbox", coupon: "", message: "Character Aria on EU-2", isGuest: false },
    customer.token,
  );
  const paymentId = new URL(created.paymentUrl).pathname.split("/").at(-1)!;
  return { ...created, paymentId, product, priceCents: Math.round(option.subOptions[0].price * 100) };
}

async function openOrderAsOwner(page: Page, orderId: string) {
  await signInThroughForm(page, E2E_OWNER.email, E2E_OWNER.password);
  await expect(page).toHaveURL(/\/admin$/);
  await (await backOfficeNav(page)).getByRole("link", { name: "Orders" }).click();
  await expect(page.getByRole("heading", { name: "Orders", level: 1 })).toBeVisible();
  await page.getByLabel("Order id").fill(orderId);
  await page.getByRole("button", { name: "Search" }).click();
  await expect(page).toHaveURL(new RegExp(`order=${orderId}`));
  await expectNoOverflow(page, "/admin/orders");
  await page.getByRole("link", { name: orderId.slice(0, 8) }).click();
  await expect(page.getByRole("heading", { name: `Order ${orderId}` })).toBeVisible();
}

function customerEmail(customer: E2eCustomer) {
  return `${customer.username}@example.com`;
}

for (const viewport of VIEWPORTS) {
  test(`the owner delivers a manual order; the customer is mailed and sees it (${viewport.name})`, async ({
    page,
    request,
  }, testInfo: TestInfo) => {
    await page.setViewportSize(viewport);
    const customer = await newCustomer(request, testInfo, "manual");
    const order = await unpaidOrder(request, customer, "manual");
    await page.goto(`/pay/sandbox/${order.paymentId}`);
    await page.getByRole("button", { name: /^Pay / }).click();
    await expect(page.getByTestId("order-status")).toHaveText("Being processed");
    await expect(page.getByTestId("order-product")).toContainText("being processed");

    await openOrderAsOwner(page, order.orderId);
    await expect(page.getByTestId("admin-order-status")).toHaveText("Being processed");
    // The list's status filter finds it among the orders being processed, flagged to deliver.
    await page.goto("/admin/orders");
    await page.getByLabel("Status").selectOption("processing");
    await page.getByLabel("Order id").fill(order.orderId);
    await page.getByRole("button", { name: "Search" }).click();
    await expect(page).toHaveURL(/status=processing/);
    const row = page.getByRole("row").filter({ has: page.getByRole("link", { name: order.orderId.slice(0, 8) }) });
    await expect(row).toContainText("Being processed");
    await expect(row).toContainText("to deliver");
    await expectNoOverflow(page, "/admin/orders?status=processing");
    await row.getByRole("link", { name: order.orderId.slice(0, 8) }).click();
    await expect(page.getByRole("heading", { name: `Order ${order.orderId}` })).toBeVisible();
    await expect(page.getByText("Character Aria on EU-2")).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: order.product.title })).toContainText("0 of 1");
    const credentials = page.getByLabel(`Credentials for ${order.product.title} (1 needed)`);
    await credentials.fill("hero-one:first\nhero-two:second");
    await page.getByRole("button", { name: "Deliver" }).click();
    await expect(
      page.getByText("This line needs 1 credential, one username:password per line; you pasted 2."),
    ).toBeVisible();
    const username = `aria-${testInfo.project.name}-${viewport.name}-${Date.now().toString(36)}`;
    await page.getByLabel(`Credentials for ${order.product.title} (1 needed)`).fill(`${username}:S3cret:pass`);
    await page.getByRole("button", { name: "Deliver" }).click();
    await expect(
      page.getByText("Delivered 1 credential; the customer was mailed. The order is completed.").first(),
    ).toBeVisible();
    await expect(page.getByRole("row").filter({ hasText: order.product.title }).first()).toContainText("1 of 1");
    await expect(page.getByRole("button", { name: "Deliver" })).toHaveCount(0);
    await expect(page.getByTestId("admin-order-status")).toHaveText("Completed");
    const mails = page.getByRole("table", { name: "Mails about this order" });
    await expect(mails).toContainText(`Your order ${order.orderId.slice(0, 8)} is delivered`);
    await expectNoOverflow(page, "/admin/orders/{id}");

    // Credentials on demand, in the answer to a POST.
    await page.getByRole("button", { name: "Show credentials" }).click();
    await expect(page.getByTestId("admin-credentials")).toContainText(`${username}:S3cret:pass`);

    const mail = await readMailTo(customerEmail(customer), /is delivered/);
    expect(mail).toContain(`/find-order?id=${order.orderId}`);
    expect(mail).not.toContain("S3cret");

    await page.goto(`/find-order?id=${order.orderId}`);
    await expect(page.getByTestId("order-status")).toHaveText("Completed");
    const card = page.getByTestId("order-product");
    await expect(card.getByRole("textbox", { name: "Username" })).toHaveValue(username);
    await expect(card.getByRole("textbox", { name: "Password" })).toHaveValue("S3cret:pass");
    await expect(card).not.toContainText("being processed");
  });

  test(`the owner confirms a payment by hand; it is delivered once and a replayed webhook changes nothing (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const customer = await newCustomer(request, testInfo, "unpaid");
    const order = await unpaidOrder(request, customer, "auto");

    await openOrderAsOwner(page, order.orderId);
    await expect(page.getByTestId("admin-order-status")).toHaveText("Waiting for payment");
    await page.getByText("Confirm this payment by hand").click();
    await page.getByLabel("Reference at the provider").fill("not-the-reference");
    await page.getByLabel("Reason").fill("Paid at the provider; the webhook never came");
    await page.getByRole("button", { name: "Confirm payment" }).click();
    await expect(page.getByText("This reference is not the one the provider gave this payment").first()).toBeVisible();
    await page.getByLabel("Reference at the provider").fill(`sandbox_${order.paymentId}`);
    await page.getByLabel("Reason").fill("Paid at the provider; the webhook never came");
    await page.getByRole("button", { name: "Confirm payment" }).click();
    await expect(page.getByText("Payment confirmed by hand; the order is completed.").first()).toBeVisible();
    await expect(page.getByTestId("admin-order-status")).toHaveText("Completed");
    await expect(page.getByTestId("admin-payment-status")).toContainText(`confirmed by hand by ${E2E_OWNER.email}`);
    await expect(page.getByRole("row").filter({ hasText: order.product.title }).first()).toContainText("1 of 1");
    await expectNoOverflow(page, "/admin/orders/{id} confirmed");

    const replayed = await sendSandboxPaidWebhook(request, { id: order.paymentId, amountCents: order.priceCents });
    expect(replayed).toEqual({ status: 200, outcome: "duplicate" });
    await page.reload();
    await expect(page.getByTestId("admin-order-status")).toHaveText("Completed");
    await expect(page.getByTestId("admin-payment-events").getByRole("listitem")).toHaveCount(1);
    await expect(page.getByRole("row").filter({ hasText: order.product.title }).first()).toContainText("1 of 1");
    await expect(page.getByRole("table", { name: "Mails about this order" }).getByRole("row")).toHaveCount(2);

    const seen = await call<{ status: string; products: { creds: string[] }[] }>(
      request,
      "GET",
      `/v1/order/read/${order.orderId}`,
    );
    expect(seen.status).toBe("completed");
    expect(seen.products[0].creds).toHaveLength(1);
  });

  test(`the owner refunds an order line to the balance; the customer sees the credit and loses the credentials (${viewport.name})`, async ({
    page,
    request,
  }, testInfo) => {
    await page.setViewportSize(viewport);
    const customer = await newCustomer(request, testInfo, "refund");
    const orderId = await deliveredOrder(page, request, customer);
    const { price } = await call<{ price: number }>(request, "GET", `/v1/order/read/${orderId}`);
    const amount = `$${price.toFixed(2)}`;

    await openOrderAsOwner(page, orderId);
    await page.getByText("Refund to the customer's balance").click();
    await page.getByRole("checkbox").first().check();
    await page.getByRole("button", { name: "Refund selected lines" }).click();
    await expect(page.getByText(`Refunded ${amount} to the customer's balance.`).first()).toBeVisible();
    const ledger = page.getByRole("table", { name: "Balance entries" });
    await expect(ledger).toContainText("refund");
    await expect(ledger).toContainText(E2E_OWNER.email);
    await expect(page.getByRole("button", { name: "Refund selected lines" })).toHaveCount(0);
    await expectNoOverflow(page, "/admin/orders/{id} refunded");

    await page.context().clearCookies();
    await signIn(page, customer);
    await page.goto("/balance");
    const entry = page
      .getByTestId("balance-history")
      .getByRole("row")
      .filter({
        has: page.locator(`a[href="/find-order?id=${orderId}"]`),
      });
    await expect(entry.filter({ hasText: `+${amount}` })).toHaveCount(1);
    await page.goto(`/find-order?id=${orderId}`);
    const card = page.getByTestId("order-product");
    await expect(card).toContainText("Refunded to your account balance");
    await expect(card.getByRole("textbox", { name: "Username" })).toHaveCount(0);
  });
}

test("support reads orders but has no action on them", async ({ page, request }, testInfo) => {
  const customer = await newCustomer(request, testInfo, "readonly");
  const order = await unpaidOrder(request, customer, "auto");
  const owner = await call<{ token: string }>(request, "POST", "/v1/user/login", {
    username: E2E_OWNER.email,
    password: E2E_OWNER.password,
  });
  const support = await newCustomer(request, testInfo, "support");
  await call(request, "POST", "/v1/admin/staff/role", { email: customerEmail(support), role: "support" }, owner.token);
  // The role change ended its sessions: its token now is a new sign-in's.
  const supportToken = (
    await call<{ token: string }>(request, "POST", "/v1/user/login", {
      username: support.username,
      password: support.password,
    })
  ).token;
  await signInThroughForm(page, support.username, support.password, `/admin/orders/${order.orderId}`);
  await expect(page.getByRole("heading", { name: `Order ${order.orderId}` })).toBeVisible();
  await expect(page.getByRole("button", { name: "Show credentials" })).toBeVisible();
  await expect(page.getByText("Confirm this payment by hand")).toHaveCount(0);
  await expect(page.getByRole("button", { name: "Cancel order" })).toHaveCount(0);
  const refused = await request.post(`/v1/admin/orders/${order.orderId}/cancel`, {
    data: {},
    headers: { authorization: `Bearer ${supportToken}` },
  });
  expect(refused.status()).toBe(403);
});

test("a manager's own order is refused with a clear message and stays as it was (ADR 035)", async ({
  page,
  request,
}, testInfo) => {
  await page.setViewportSize({ width: 390, height: 844 });
  const manager = await newStaff(request, testInfo, "manager");
  const order = await unpaidOrder(request, manager, "auto");
  await signInThroughForm(page, manager.username, manager.password, `/admin/orders/${order.orderId}`);
  await expect(page.getByRole("heading", { name: `Order ${order.orderId}` })).toBeVisible();
  await page.getByText("Cancel this unpaid order").click();
  await page.getByRole("button", { name: "Cancel order" }).click();
  await expect(
    page.getByRole("alert").filter({
      hasText: "This is your own order: staff do not act on their own orders. Another owner or manager can do it.",
    }),
  ).toBeVisible();
  await expectNoOverflow(page, "/admin/orders/{own order}");
  const still = await call<{ status: string }>(
    request,
    "GET",
    `/v1/admin/orders/${order.orderId}`,
    undefined,
    manager.token,
  );
  expect(still.status).toBe("pending");
});
