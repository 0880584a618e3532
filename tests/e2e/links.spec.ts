import { type APIRequestContext, expect, type Page, type TestInfo, test } from "@playwright/test";
import { call } from "../support/e2e-api";
import { onlyInPairedProject } from "../support/e2e-projects";

/*
 * Issue 10, "links that lead nowhere": every internal link of the main pages (header, footer, home, shop, FAQ,
 * an order page and the customer pages, signed in) answers something other than a 404, at a phone width with JS
 * and a desktop one without (the pages' links are the server's in both modes; ADR 062). Links are read from the
 * rendered pages, so a new link is checked too.
 */

type Option = { _id: string; availableStock: number; subOptions: { duration: number }[] };
type Product = { _id: string; fullFillmode: "auto" | "manual"; minQuantity: number };

/** Signing out is a POST; its link-less GET only goes home, and crawling it must not end the session. */
const NOT_CRAWLED = new Set(["/logout"]);

/** The same-origin links of the page, without fragments, each once. */
async function internalLinks(page: Page, origin: string): Promise<string[]> {
  const hrefs = await page
    .locator("a[href]")
    .evaluateAll((anchors) => anchors.map((anchor) => (anchor as HTMLAnchorElement).href));
  const links = new Set<string>();
  for (const href of hrefs) {
    const url = new URL(href);
    if (url.origin !== origin || NOT_CRAWLED.has(url.pathname)) continue;
    url.hash = "";
    links.add(url.pathname + url.search);
  }
  return [...links];
}

/** A customer signed in through the form, with one paid order (sandbox), whose page shows the order's links. */
async function customerWithOrder(page: Page, request: APIRequestContext, testInfo: TestInfo) {
  const username = `links_${testInfo.project.name.replace("-", "")}_${Date.now().toString(36)}${testInfo.workerIndex}`;
  const password = `correct horse ${username}`;
  const { token } = await call<{ token: string }>(request, "POST", "/v1/user/register", {
    username,
    email: `${username}@example.com`,
    password,
    password2: password,
  });
  const products = await call<Product[]>(request, "GET", "/v1/product/read");
  let bought: { optionId: string; duration: number } | undefined;
  for (const product of products.filter(
    (candidate) => candidate.fullFillmode === "auto" && candidate.minQuantity === 1,
  )) {
    const options = await call<Option[]>(request, "GET", `/v1/product/option/read/${product._id}`);
    const option = options.find((candidate) => candidate.availableStock >= 2 && candidate.subOptions.length > 0);
    if (option) {
      bought = { optionId: option._id, duration: option.subOptions[0].duration };
      break;
    }
  }
  if (!bought) throw new Error("the demo catalogue has no automatic plan with stock");
  await call(request, "POST", "/v1/cart/add", { ...bought, quantity: 1 }, token);
  const order = await call<{ orderId: string; paymentUrl: string }>(
    request,
    "POST",
    "/v1/order/create",
    { paymentMethod: "sandbox" },
    token,
  );
  await call(request, "POST", `/v1/sandbox/payments/${order.paymentUrl.split("/").pop()}/pay`, {});

  await page.goto("/login");
  await page.getByLabel("Username or email").fill(username);
  await page.getByLabel("Password", { exact: true }).fill(password);
  await page.getByRole("button", { name: "Sign In" }).click();
  await expect(page).toHaveURL(/\/dashboard$/);
  return order.orderId;
}

for (const viewport of [
  { name: "phone", width: 390, height: 844 },
  { name: "desktop", width: 1280, height: 800 },
] as const) {
  test.describe(`at ${viewport.width} px`, () => {
    test.use({ viewport: { width: viewport.width, height: viewport.height } });
    onlyInPairedProject(viewport.name);

    test("no link of the main pages leads to a page that does not exist", async ({
      page,
      request,
      baseURL,
    }, testInfo) => {
      test.setTimeout(90_000);
      const origin = new URL(baseURL!).origin;
      const checked = new Map<string, number>();
      async function crawl(start: string) {
        const response = await page.goto(start);
        expect(response?.status(), `${start} itself`).toBeLessThan(400);
        for (const link of await internalLinks(page, origin)) {
          if (checked.has(link)) continue;
          // The page's own cookies (a signed-in session too), without following the link in the tab.
          const answer = await page.request.get(link, { maxRedirects: 5 });
          checked.set(link, answer.status());
        }
      }

      for (const start of ["/", "/shop", "/faqs", "/contact", "/find-order", "/terms-of-service", "/privacy-policy"]) {
        await crawl(start);
      }
      const orderId = await customerWithOrder(page, request, testInfo);
      for (const start of [`/find-order?id=${orderId}`, "/dashboard", "/tickets", "/balance", "/settings"]) {
        await crawl(start);
      }

      const broken = [...checked].filter(([, status]) => status === 404 || status >= 500);
      expect(broken, `links that lead nowhere: ${JSON.stringify(broken)}`).toEqual([]);
      // The crawl saw the header's, the footer's and the order page's links.
      expect([...checked.keys()]).toEqual(
        expect.arrayContaining(["/shop", "/find-order", "/faqs", "/contact", "/terms-of-service", "/dashboard"]),
      );
    });
  });
}
