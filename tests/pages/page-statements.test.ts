import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../api/db/seed";
import { type PageTest, createPageTest } from "../support/pages";
import { createCustomer } from "../support/shop";
import { route } from "../support/routes";

const dashboardPage = await route("dashboard");
const shopPage = await route("shop");
const productPage = await route("shop.$productId");

/*
 * What one signed-in page asks the database (issue 27): a page's loaders call /v1 at once, and their calls share
 * one session lookup (api/in-process.ts), even while the first is still on its way. The counts are pinned so a
 * change that adds a statement to every page view is seen here, not in the bench.
 */

let page: PageTest;
let counting = false;
const statements: string[] = [];
const apiCalls: string[] = [];
beforeAll(async () => {
  page = await createPageTest(
    { CATALOGUE_CACHE_MS: "60000" },
    {
      onQuery: (statement) => {
        if (counting) statements.push(statement);
      },
      onApiCall: (path) => {
        if (counting) apiCalls.push(path);
      },
    },
  );
  await seedDemoData(page.db);
});
afterAll(() => page.close());

async function statementsOf(load: () => Promise<unknown>) {
  await load(); // warms the catalogue snapshot, as any earlier visitor would have
  statements.length = 0;
  apiCalls.length = 0;
  counting = true;
  try {
    await load();
  } finally {
    counting = false;
  }
  return [...statements];
}

/** The /v1 calls of the last counted load, without their query strings. */
const callsSeen = () => apiCalls.map((path) => path.split("?")[0]);

const sessionLookups = (list: string[]) =>
  list.filter((statement) => /from "sessions" inner join "users"/.test(statement));

/*
 * Budgets per page (issue 40, ADR 059): the /v1 calls of the root's and the page's loaders together, and the SQL
 * statements they run with the catalogue snapshot warm. An anonymous page reads social links and the page's own
 * read; a signed-in one adds the profile and the server cart, which share one session lookup.
 */
describe("a page's /v1 calls and statements", () => {
  it("anonymous /shop: 2 calls (social links, the shelves), answered from snapshots: at most 1 statement", async () => {
    page.jar.clear();
    const seen = await statementsOf(() => page.loadPage(shopPage, "/shop"));
    expect(callsSeen()).toEqual(expect.arrayContaining(["/v1/social_link/read", "/v1/product/shelves"]));
    expect(callsSeen()).toHaveLength(2);
    expect(seen.length).toBeLessThanOrEqual(1);
  });

  it("anonymous /shop/{id}: the shop and the product page's one read, no more than 7 statements", async () => {
    page.jar.clear();
    const shop = await page.loadPage(shopPage, "/shop");
    const [product] = (shop.routeData as { groups: { products: { _id: string }[] }[] }).groups[0].products;
    const path = `/shop/${product._id}`;
    // A document request runs the root's, the shop's and the product's loaders: loadPage runs the root's with each.
    const seen = await statementsOf(() =>
      Promise.all([page.loadPage(shopPage, path), page.loadPage(productPage, path, { productId: product._id })]),
    );
    // The root's social links twice (each loadPage runs the root), the shelves and the product page: one call each.
    expect(callsSeen().filter((call) => call.startsWith("/v1/product/page/"))).toHaveLength(1);
    expect(
      callsSeen().filter((call) => call.startsWith("/v1/product/") && !call.startsWith("/v1/product/page/")),
    ).toEqual(["/v1/product/shelves"]);
    expect(seen.length).toBeLessThanOrEqual(7);
  });
});

describe("a signed-in page's statements", () => {
  it("/shop: one session lookup for all its calls, and no more than 7 statements", async () => {
    const customer = await createCustomer(page.db);
    page.jar.clear();
    await page.signIn(customer.token);
    const seen = await statementsOf(() => page.loadPage(shopPage, "/shop"));
    expect(sessionLookups(seen)).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(7);
    // Social links, the shelves, the profile and the server cart.
    expect(callsSeen()).toHaveLength(4);
  });

  it("/dashboard: one session lookup for all its calls, and no more than 10 statements", async () => {
    const customer = await createCustomer(page.db);
    page.jar.clear();
    await page.signIn(customer.token);
    const seen = await statementsOf(() => page.loadPage(dashboardPage, "/dashboard"));
    expect(sessionLookups(seen)).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(10);
    expect(callsSeen().length).toBeLessThanOrEqual(7);
  });
});
