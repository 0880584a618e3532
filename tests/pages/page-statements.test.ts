import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { seedDemoData } from "../../api/db/seed";
import { type PageTest, createPageTest } from "../support/pages";
import { createCustomer } from "../support/shop";
import { route } from "../support/routes";

const dashboardPage = await route("dashboard");
const shopPage = await route("shop");

/*
 * What one signed-in page asks the database (issue 27): a page's loaders call /v1 at once, and their calls share
 * one session lookup (api/in-process.ts), even while the first is still on its way. The counts are pinned so a
 * change that adds a statement to every page view is seen here, not in the bench.
 */

let page: PageTest;
let counting = false;
const statements: string[] = [];
beforeAll(async () => {
  page = await createPageTest(
    { CATALOGUE_CACHE_MS: "60000" },
    {
      onQuery: (statement) => {
        if (counting) statements.push(statement);
      },
    },
  );
  await seedDemoData(page.db);
});
afterAll(() => page.close());

async function statementsOf(load: () => Promise<unknown>) {
  await load(); // warms the catalogue snapshot, as any earlier visitor would have
  statements.length = 0;
  counting = true;
  try {
    await load();
  } finally {
    counting = false;
  }
  return [...statements];
}

const sessionLookups = (list: string[]) =>
  list.filter((statement) => /from "sessions" inner join "users"/.test(statement));

describe("a signed-in page's statements", () => {
  it("/shop: one session lookup for all its calls, and no more than 7 statements", async () => {
    const customer = await createCustomer(page.db);
    page.jar.clear();
    await page.signIn(customer.token);
    const seen = await statementsOf(() => page.loadPage(shopPage, "/shop"));
    expect(sessionLookups(seen)).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(7);
  });

  it("/dashboard: one session lookup for all its calls, and no more than 10 statements", async () => {
    const customer = await createCustomer(page.db);
    page.jar.clear();
    await page.signIn(customer.token);
    const seen = await statementsOf(() => page.loadPage(dashboardPage, "/dashboard"));
    expect(sessionLookups(seen)).toHaveLength(1);
    expect(seen.length).toBeLessThanOrEqual(10);
  });
});
