import { type APIRequestContext, expect, test } from "@playwright/test";

/** Buys one unit through /v1 and the sandbox gateway, as a customer's browser would through the pages. */
async function buySomething(request: APIRequestContext, tag: string) {
  const unique = `${tag}${Date.now().toString(36)}${Math.floor(Math.random() * 1e6)}`;
  const register = await request.post("/v1/user/register", {
    data: {
      username: `proof${unique}`,
      email: `proof.${unique}@example.com`,
      password: "a long enough passphrase 7",
      password2: "a long enough passphrase 7",
    },
  });
  expect(register.status()).toBe(201);
  const token = (await register.json()).payload.token as string;
  const auth = { authorization: `Bearer ${token}` };

  const products = (await (await request.get("/v1/product/read")).json()).payload as {
    _id: string;
    title: string;
    totalStock: number;
    minQuantity: number;
    fullFillmode: string;
  }[];
  for (const product of products.filter((p) => p.fullFillmode === "auto" && p.minQuantity === 1 && p.totalStock > 5)) {
    const options = (await (await request.get(`/v1/product/option/read/${product._id}`)).json()).payload as {
      _id: string;
      availableStock: number;
      subOptions: { duration: number }[];
    }[];
    const option = options.find((candidate) => candidate.availableStock > 2 && candidate.subOptions.length > 0);
    if (!option) continue;
    const added = await request.post("/v1/cart/add", {
      headers: auth,
      data: { optionId: option._id, quantity: 1, duration: option.subOptions[0].duration },
    });
    expect(added.ok()).toBe(true);
    const created = await request.post("/v1/order/create", {
      headers: auth,
      data: { coupon: "", paymentMethod: "sandbox", message: "", isGuest: false },
    });
    expect(created.ok()).toBe(true);
    const paymentId = new URL((await created.json()).payload.paymentUrl).pathname.split("/").pop();
    expect((await request.post(`/v1/sandbox/payments/${paymentId}/pay`)).ok()).toBe(true);
    return product.title;
  }
  throw new Error("no product in stock to buy");
}

test.describe("recent purchases toast", () => {
  test.skip(({ javaScriptEnabled }) => !javaScriptEnabled, "the toast is a JavaScript-only nicety");

  test("shows a recent purchase after 8 seconds with a masked email, and the bell turns it off", async ({
    page,
    request,
  }) => {
    await buySomething(request, "a");
    await page.clock.install();
    await page.goto("/shop");
    const bell = page.getByRole("button", { name: "Hide recent purchases" });
    await expect(bell).toBeVisible();
    // The 8 s count starts once the list has arrived; advancing the clock before that would race it.
    await expect(page.locator("[data-recent-orders]")).not.toHaveAttribute("data-recent-orders", "0");

    const toast = page.getByRole("status").filter({ hasText: "bought" });
    await page.clock.runFor(7_000);
    await expect(toast).toHaveCount(0);
    await page.clock.runFor(1_500);
    await expect(toast).toBeVisible();
    await expect(toast).toContainText(/\*\*\*@/);
    await expect(toast).not.toContainText("@example.com");

    // Visible about 9.2 s, then gone until the next one 25 s after the first.
    await page.clock.runFor(9_500);
    await expect(toast).toHaveCount(0);
    await page.clock.runFor(16_000);
    await expect(toast).toBeVisible();

    await bell.click();
    await expect(toast).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Show recent purchases" })).toBeVisible();

    // The choice is remembered on the next visit.
    await page.reload();
    await page.clock.runFor(30_000);
    await expect(toast).toHaveCount(0);
    await expect(page.getByRole("button", { name: "Show recent purchases" })).toBeVisible();
  });

  test("a failed read of the recent purchases costs the toast only, never the shop", async ({ page }) => {
    let reads = 0;
    await page.route("**/resources/recent-orders*", (route) => {
      reads += 1;
      return route.fulfill({ status: 500, body: "down" });
    });
    await page.goto("/shop");
    await expect(page.getByRole("button", { name: "Hide recent purchases" })).toBeVisible();
    await expect.poll(() => reads).toBeGreaterThan(0);
    // The shop stays usable: a product opens over it.
    await page.locator("main a[href^='/shop/']").first().click();
    await expect(page.getByRole("dialog")).toBeVisible();
    await expect(page.getByText("Something went wrong loading the shop.")).toHaveCount(0);
  });
});

test("without JavaScript there is no toast and no bell", async ({ page, javaScriptEnabled }) => {
  test.skip(javaScriptEnabled, "checks the no-JS page");
  await page.goto("/shop");
  await expect(page.getByRole("button", { name: /recent purchases/ })).toHaveCount(0);
});
