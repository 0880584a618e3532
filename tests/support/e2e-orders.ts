import { type APIRequestContext, expect, type Page, type TestInfo } from "@playwright/test";
import { call } from "./e2e-api";

type Product = { _id: string; fullFillmode: "auto" | "manual"; minQuantity: number };
type Option = { _id: string; availableStock: number; subOptions: { duration: number; price: number }[] };

let counter = 0;

/** A customer registered through /v1, with the password to sign in through the page and a bearer token. */
export async function newCustomer(request: APIRequestContext, testInfo: TestInfo, prefix = "c") {
  counter++;
  const username = `${prefix}_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${counter}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  return { username, password, token };
}
export type E2eCustomer = Awaited<ReturnType<typeof newCustomer>>;

export async function signIn(page: Page, customer: E2eCustomer) {
  await page.goto("/login");
  await page.getByLabel("Username or email").fill(customer.username);
  await page.getByLabel("Password", { exact: true }).fill(customer.password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
}

/** The automatically delivered plan with the most stock, and its first warranty duration. */
export async function roomiestAutoPlan(request: APIRequestContext) {
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  let best: { option: Option; duration: Option["subOptions"][number] } | undefined;
  for (const product of products.filter((item) => item.fullFillmode === "auto" && item.minQuantity === 1)) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    for (const option of options.filter((candidate) => candidate.subOptions.length > 0)) {
      if (!best || option.availableStock > best.option.availableStock)
        best = { option, duration: option.subOptions[0] };
    }
  }
  if (!best) throw new Error("the demo catalogue has no automatic plan with stock");
  return best;
}

/** An order of one unit of `plan`, placed through /v1 by `customer` and paid on the sandbox's page. Returns its id. */
export async function paidOrder(
  page: Page,
  request: APIRequestContext,
  customer: E2eCustomer,
  plan: { option: { _id: string }; duration: { duration: number } },
) {
  await call(
    request,
    "POST",
    "/v1/cart/add",
    { optionId: plan.option._id, duration: plan.duration.duration, quantity: 1 },
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
  return orderId;
}

/** A delivered order: placed through /v1 by `customer`, paid on the sandbox's page. Returns its id. */
export async function deliveredOrder(page: Page, request: APIRequestContext, customer: E2eCustomer) {
  const orderId = await paidOrder(page, request, customer, await roomiestAutoPlan(request));
  await expect(page.getByTestId("order-status")).toHaveText("Completed");
  return orderId;
}
