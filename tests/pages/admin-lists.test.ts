import { eq } from "drizzle-orm";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { stockCredentials } from "../../api/db/schema";
import { type PageTest, createPageTest } from "../support/pages";
import { createCustomer, createListing } from "../support/shop";
import { route } from "../support/routes";

const keysPage = await route("admin.keys");
const ordersPage = await route("admin.orders._index");
const stockPage = await route("admin.stock.$optionId");

/* The back office's list kit (ADR 048): the URL state a list reads, and a bulk action posted to its action. */

let page: PageTest;
let managerToken: string;
let supportToken: string;
beforeAll(async () => {
  page = await createPageTest();
  managerToken = (await createCustomer(page.db, { role: "manager" })).token;
  supportToken = (await createCustomer(page.db, { role: "support" })).token;
});
afterAll(() => page.close());

async function signInAs(token: string) {
  page.jar.clear();
  await page.signIn(token);
}

describe("a list's address", () => {
  it("reads values it does not know as the list's defaults: the page answers, never a 500", async () => {
    await signInAs(managerToken);
    const keys = await page.load(
      keysPage,
      "/admin/keys?state=lost&optionId=../etc&batchId=1&hint=%20abcdefghijk&page=-3",
    );
    expect(keys.status).toBe(200);
    expect(keys.data.query).toEqual({ state: "", optionId: "", batchId: "", hint: "abcdefgh", page: 1 });

    const kept = await page.load(keysPage, "/admin/keys?state=unused&page=2");
    expect(kept.data.query).toMatchObject({ state: "unused", page: 2 });
  });

  it("drops a status, a gateway or a checkbox value no form sends, and keeps the rest of the search", async () => {
    await signInAs(supportToken);
    const orders = await page.load(ordersPage, "/admin/orders?status=lost&gateway=cheque&waiting=yes&page=x&email=a@");
    expect(orders.status).toBe(200);
    expect(orders.data.query).toMatchObject({ status: "", gateway: "", waiting: "", page: 1, email: "a@" });
    expect(orders.data.error).toBeNull();
  });
});

describe("the bulk removal of an option's stock", () => {
  it("removes the ticked credentials and comes back to the same page of the list with a toast", async () => {
    await signInAs(managerToken);
    const { optionId } = await createListing(page.db, { stock: 3 });
    const path = `/admin/stock/${optionId}`;
    const listed = await page.load(stockPage, `${path}?state=available`, { optionId });
    const [first, second] = listed.data.stock.records as { _id: string; username: string }[];

    const removed = await page.post(
      stockPage,
      `${path}?state=available&added=2`,
      { intent: "remove", accounts: [first._id, second._id] },
      { optionId },
    );
    expect(removed).toMatchObject({ status: 302, location: `${path}?state=available`, toast: { type: "success" } });
    const left = await page.db
      .select({ username: stockCredentials.username, status: stockCredentials.status })
      .from(stockCredentials)
      .where(eq(stockCredentials.optionId, optionId));
    expect(left.filter((row) => row.status === "available")).toHaveLength(1);
    expect(left.find((row) => row.username === first.username)?.status).toBe("void");
  });

  it("answers a post with nothing ticked beside the checkboxes, and removes nothing", async () => {
    await signInAs(managerToken);
    const { optionId } = await createListing(page.db, { stock: 2 });
    const refused = await page.post(stockPage, `/admin/stock/${optionId}`, { intent: "remove" }, { optionId });
    expect(refused.status).toBe(400);
    expect(refused.data.form).toBe("stock-remove");
    expect(refused.data.result.error.accounts).toEqual(["Tick the credentials to remove"]);
    const rows = await page.db.select().from(stockCredentials).where(eq(stockCredentials.optionId, optionId));
    expect(rows.every((row) => row.status === "available")).toBe(true);
  });
});
